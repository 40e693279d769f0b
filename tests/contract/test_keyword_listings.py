"""The visible-document listing remembered per commit (``index/keyword_listings.py``) and
the vector scope built on it (``index/vector_route.py``): listed once while nothing is
committed, and every change of who may see what is seen by the very next search, whether
this index committed it, another instance on the same folder, or a batch's flush."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_keyword_index import index_texts

from askalong.index.keyword import KeywordIndex
from askalong.index.keyword_listings import VisibleListings
from askalong.index.vector_route import VectorIndexRoute
from askalong.index.vectors import VectorIndex
from askalong.types import Access

ALICE, BOB = Access(user="alice"), Access(user="bob")


def test_the_listing_is_made_once_per_commit(tmp_path: Path) -> None:
    index = KeywordIndex(tmp_path)
    index_texts(index, "a", "alpha words", owner="alice")
    index_texts(index, "b", "beta words", owner="bob", visibility="public")
    first = index.document_ids(ALICE)
    assert first == {"a", "b"}
    assert index.document_ids(ALICE) is first  # remembered: no second listing
    assert index.document_ids(BOB) == {"b"}  # another caller, another listing
    index_texts(index, "c", "gamma words", owner="alice")
    assert index.document_ids(ALICE) == {"a", "b", "c"}


def test_a_remembered_listing_is_read_without_a_searcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = KeywordIndex(tmp_path)
    index_texts(index, "a", "alpha words", owner="alice")
    first = index.document_ids(ALICE)

    def no_searcher() -> None:
        raise AssertionError("a remembered listing needs no searcher")

    monkeypatch.setattr(index, "_searcher_at", no_searcher)
    assert index.document_ids(ALICE) is first
    monkeypatch.undo()
    index_texts(index, "b", "beta words", owner="alice")  # a commit: listed afresh
    assert index.document_ids(ALICE) == {"a", "b"}


def test_a_visibility_change_is_seen_by_the_next_search(tmp_path: Path) -> None:
    index = KeywordIndex(tmp_path)
    index_texts(index, "plan", "the plans", owner="bob")
    assert index.document_ids(ALICE) == set()
    index_texts(index, "plan", "the plans", owner="bob", visibility="public")
    assert index.document_ids(ALICE) == {"plan"}
    index_texts(index, "plan", "the plans", owner="bob", visibility="private")
    assert index.document_ids(ALICE) == set()
    index.delete("plan")
    assert index.document_ids(BOB) == set()


def test_another_instances_commit_is_seen(tmp_path: Path) -> None:
    here, there = KeywordIndex(tmp_path), KeywordIndex(tmp_path)
    index_texts(here, "plan", "the plans", owner="bob", visibility="public")
    assert here.document_ids(ALICE) == {"plan"}
    index_texts(there, "plan", "the plans", owner="bob")  # another process, as it were
    assert here.document_ids(ALICE) == set()


def test_a_batchs_writes_are_seen_once_flushed(tmp_path: Path) -> None:
    index = KeywordIndex(tmp_path)
    index_texts(index, "plan", "the plans", owner="bob", visibility="public")
    assert index.document_ids(ALICE) == {"plan"}
    with index.batch():
        index_texts(index, "plan", "the plans", owner="bob")
        assert index.document_ids(ALICE) == {"plan"}  # not committed yet: as the index is
    assert index.document_ids(ALICE) == set()


def test_an_unreadable_generation_lists_every_time(tmp_path: Path) -> None:
    listings = VisibleListings(tmp_path / "nowhere")
    made = [frozenset({"a"}), frozenset({"b"})]
    assert listings.generation() is None
    assert listings.listed(None, None, made.pop) == {"b"}
    assert listings.listed(None, None, made.pop) == {"a"}


def test_listings_are_forgotten_past_the_limit(tmp_path: Path) -> None:
    listings = VisibleListings(tmp_path, kept=2)
    for key in ("a", "b", "c"):
        listings.listed(b"g1", (key,), lambda key=key: frozenset({key}))
    assert listings.listed(b"g1", ("a",), lambda: frozenset({"again"})) == {"again"}
    assert listings.listed(b"g1", ("c",), lambda: frozenset({"again"})) == {"c"}
    assert listings.listed(b"g2", ("c",), lambda: frozenset({"new"})) == {"new"}


def test_the_vector_scope_follows_visibility_and_vectors(tmp_path: Path) -> None:
    keyword = KeywordIndex(tmp_path / "keyword")
    route = VectorIndexRoute(VectorIndex(tmp_path / "vectors", 4), keyword)
    index_texts(keyword, "a", "alpha", owner="alice")
    index_texts(keyword, "b", "beta", owner="bob", visibility="public")
    route.add("a", ["a:0"], np.eye(4, dtype=np.float32)[:1])
    scope = route.scope(ALICE)
    assert (scope.ready, scope.pending) == ({"a"}, {"b"})
    assert route.scope(ALICE) is scope  # nothing changed: worked out once
    route.add("b", ["b:0"], np.eye(4, dtype=np.float32)[1:2])
    assert route.scope(ALICE).ready == {"a", "b"}
    index_texts(keyword, "b", "beta", owner="bob")
    assert route.scope(ALICE).ready == {"a"}
    hits = route.search(np.eye(4, dtype=np.float32)[1], route.scope(ALICE))
    assert [hit.document_id for hit in hits] == ["a"]
    route.close()


def test_a_snapshots_remembered_rows_never_outlive_it(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path, 4)
    index.add("a", ["a:0", "a:1"], np.eye(4, dtype=np.float32)[:2])
    index.add("b", ["b:0"], np.eye(4, dtype=np.float32)[2:3])
    allowed = frozenset({"a", "b"})
    before = index.snapshot()
    assert before.candidates(allowed) is before.candidates(allowed)  # remembered
    index.delete("a")
    after = index.snapshot()
    assert list(after.candidates(allowed)) == [2]
    assert list(before.candidates(allowed)) == [0, 1, 2]  # the old snapshot's own rows
    index.close()


def test_a_searcher_serves_until_the_next_commit(tmp_path: Path) -> None:
    # A fresh searcher starts with cold caches (~0.3 of a 1.5 CPU ms search at 10k chunks).
    index = KeywordIndex(tmp_path)
    index_texts(index, "a", "alpha words", owner="alice")
    first, generation = index._searcher_at()
    assert generation is not None and index._searcher_at()[0] is first
    assert [hit.document_id for hit in index.search("words", ALICE)] == ["a"]
    index_texts(index, "b", "beta words", owner="alice")  # a commit: reloaded
    assert index._searcher_at()[0] is not first
    assert sorted(hit.document_id for hit in index.search("words", ALICE)) == ["a", "b"]
