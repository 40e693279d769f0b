"""The agent's pure parts: continuing source numbers, the fenced labels, citation scores
and marker renumbering."""

from __future__ import annotations

import pytest

from askalong.agent.citation_scores import citation_scores
from askalong.agent.fenced_passages import fenced_passages, source_label
from askalong.agent.numbering import renumber_markers
from askalong.agent.source_registry import SourceRegistry
from askalong.context.units import ContextUnit
from askalong.text.fence import Fence
from askalong.types import BlockSpan, Claim, Hit


def unit(chunk: str, document: str = "d1", page: int | None = 3) -> ContextUnit:
    text = f"text of {chunk}"
    span = BlockSpan(f"b-{chunk}", 0, len(text))
    return ContextUnit(document, (chunk,), text, (span,), (span,), (), page, page, "retrieved", 1.0)


def test_new_chunks_continue_after_the_highest_and_a_seen_chunk_keeps_its_number() -> None:
    registry = SourceRegistry()
    first = registry.register([unit(f"c{i}") for i in range(1, 6)], {"d1": "guide.pdf"})
    second = registry.register([unit("c3"), unit("c9"), unit("c1"), unit("c10")], {})
    assert [s.number for s in first] == [1, 2, 3, 4, 5]
    assert [s.number for s in second] == [3, 6, 1, 7]
    assert registry.get(6) is not None and registry.get(6).unit.chunk_ids == ("c9",)
    assert registry.highest == 7


def test_each_source_keeps_the_hits_of_its_chunks_as_first_found() -> None:
    registry = SourceRegistry()
    first = [Hit("c1", "d1", 0.9, "hybrid", 3.0, 1, 0.8, 2), Hit("c2", "d1", 0.7, "hybrid")]
    registry.register([unit("c2"), unit("c1")], {}, first)
    again = [Hit("c1", "d1", 0.1, "keyword", 1.0, 4), Hit("c5", "d2", 0.5, "keyword", 2.0, 1)]
    registry.register([unit("c1"), unit("c5", "d2"), unit("c6")], {}, again)
    by_number = {s.number: s.hits for s in registry.sources}
    assert by_number == {1: (first[1],), 2: (first[0],), 3: (again[1],), 4: ()}
    assert registry.hits == (first[1], first[0], again[1])  # by source number, once each


def test_a_parallel_batch_is_numbered_in_call_order() -> None:
    a, b = [unit("a1"), unit("a2")], [unit("b1"), unit("a2")]
    one, two = SourceRegistry(), SourceRegistry()
    forward = one.register_batch([(a, {}), (b, {})])
    assert [[s.number for s in r] for r in forward] == [[1, 2], [3, 2]]
    backward = two.register_batch([(b, {}), (a, {})])
    assert [[s.number for s in r] for r in backward] == [[1, 2], [3, 2]]
    assert two.get(1) is not None and two.get(1).unit.chunk_ids == ("b1",)


def test_a_merged_unit_takes_the_number_of_a_chunk_it_holds() -> None:
    registry = SourceRegistry()
    registry.register([unit("c1"), unit("c2")], {})
    text = "merged"
    span = BlockSpan("b", 0, len(text))
    merged = ContextUnit("d1", ("c4", "c2"), text, (span,), (span,), (), 1, 1, "retrieved", 1.0)
    assert [s.number for s in registry.register([merged, unit("c4")], {})] == [2, 2]


def test_labels_in_both_languages_and_the_untrusted_fence() -> None:
    source = SourceRegistry().register([unit("c1")], {"d1": "guide.pdf"})[0]
    assert source_label(source, "en") == "(source#1: guide.pdf | p. 3)"
    assert source_label(source, "zh") == "(来源#1: guide.pdf | 第3页)"
    fence = Fence("n0nce")
    shown = fenced_passages([source], fence, "en")
    assert "untrusted" in shown.lower()
    assert "<<<(source#1: guide.pdf | p. 3) n0nce>>>\ntext of c1\n<<<END n0nce>>>" in shown
    pageless = SourceRegistry().register([unit("c1", page=None)], {"d1": "a|b>>>"})[0]
    assert source_label(pageless, "en") == "(source#1: a/b)"


def test_citation_precision_and_recall() -> None:
    claims = [
        Claim("one", (1, 2), "supported"),
        Claim("two", (3,), "unverified"),
        Claim("three", (), "unverified"),
    ]
    scores = citation_scores(claims, {1: "supported", 2: "suspicious", 3: "weak"})
    assert scores.recall == pytest.approx(1 / 3)
    assert scores.precision == pytest.approx(1 / 3)
    assert citation_scores([], {}).precision is None


def test_markers_renumbered_and_unknown_numbers_dropped() -> None:
    assert renumber_markers("A [1]. B [2, 3]. C [9].", {1: 6, 2: 7, 3: 6}) == "A [6]. B [7, 6]. C ."
