"""``RouteHits``: a route's hits as columns, read as the list of ``Hit``s it stands for,
and by fusion as its (document, score, rank) evidence."""

from __future__ import annotations

import pytest

from askalong.retrieve.fusion import _route_evidence, single_route
from askalong.route_hits import RouteHits
from askalong.types import Hit


def keyword_hits() -> RouteHits:
    return RouteHits("keyword", ["a:c0", "b:c1", "a:c2"], ["a", "b", "a"], [3.0, 2.0, 1.0])


def as_list() -> list[Hit]:
    return [
        Hit("a:c0", "a", 3.0, "keyword", 3.0, 1),
        Hit("b:c1", "b", 2.0, "keyword", 2.0, 2),
        Hit("a:c2", "a", 1.0, "keyword", 1.0, 3),
    ]


def test_route_hits_read_as_the_list_of_hits_they_stand_for() -> None:
    hits = keyword_hits()
    assert hits == as_list() and as_list() == hits and list(hits) == as_list()
    assert hits[-1] == as_list()[-1] and hits[1:] == as_list()[1:] and len(hits) == 3
    assert hits != as_list()[:2] and RouteHits("keyword", [], [], []) == []
    with pytest.raises(IndexError):
        hits[3]
    vector = RouteHits("vector", ["a:c0"], ["a"], [0.5])
    assert vector[0] == Hit("a:c0", "a", 0.5, "vector", vector_score=0.5, vector_rank=1)
    with pytest.raises(ValueError, match="differ in length"):
        RouteHits("vector", ["a:c0"], [], [0.5])


def test_fusion_reads_the_columns_as_it_reads_the_hits() -> None:
    duplicated = RouteHits("keyword", ["a:c0", "b:c1", "a:c0"], ["a", "b", "a"], [3.0, 2.0, 1.0])
    for hits in (keyword_hits(), duplicated):
        assert _route_evidence(hits, "keyword") == _route_evidence(list(hits), "keyword")
        assert _route_evidence(hits, "vector") == _route_evidence(list(hits), "vector")
        for limit in (None, 1, 2):
            expected = single_route(list(hits), "keyword", 60, limit=limit)
            assert single_route(hits, "keyword", 60, limit=limit) == expected
