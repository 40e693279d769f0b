"""The conflict store's contract for every backend: pairs are listed only to someone who
may see both documents, go with either chunk (deleted or stored afresh), and a document's
scan record goes with any change to its chunks."""

from __future__ import annotations

import pytest
from test_store import Sample, add, sample

from askalong.maintain.conflict_scan import conflict_pair
from askalong.store.base import Store
from askalong.types import Access, BlockSpan, Chunk, StoredDocument
from askalong.values.conflicts import ConflictPair

ALICE, BOB = Access(user="alice"), Access(user="bob")
Two = tuple[Sample, Sample, ConflictPair]
NOW = "2026-12-02T00:00:00+00:00"
TEXT = "This parameter can only be set in the postgresql.conf file. The default is on."


def _with_text(item: Sample, text: str) -> Sample:
    """The sample with its first chunk holding ``text`` (one block span over it)."""
    first, *rest = item.stored.chunks
    span = BlockSpan(first.spans[0].block_id, 0, len(text))
    changed = Chunk(first.id, first.document_id, 0, (span,), text, first.section_path, 1, 1)
    return Sample(
        StoredDocument(item.document, item.stored.blocks, (changed, *rest)), item.original
    )


@pytest.fixture
def two(store: Store) -> Two:
    public = _with_text(sample("a", visibility="public"), TEXT)
    private = _with_text(sample("b", owner="alice"), TEXT.replace(" on.", " off."))
    add(store, public, private)
    pair = conflict_pair(public.stored.chunks[0], private.stored.chunks[0], 0.99)
    assert pair is not None and pair.kind == "setting"
    store.record_scan(private.id, [pair], chunks=2, skipped=0, scanned_at=NOW)
    store.record_scan(public.id, [], chunks=2, skipped=0, scanned_at=NOW)
    return public, private, pair


def test_a_pair_is_listed_to_those_who_see_both(store: Store, two: Two) -> None:
    public, _, pair = two
    assert store.conflict_pairs(Access.local()) == [pair]
    assert store.conflict_pairs(ALICE) == [pair]
    assert store.conflict_pairs(BOB) == []  # bob sees the public side only
    assert store.conflict_pairs(ALICE, [public.id]) == [pair]
    assert store.conflict_pairs(ALICE, ["elsewhere"]) == []


def test_recording_again_keeps_one_copy(store: Store, two: Two) -> None:
    _, private, pair = two
    store.record_scan(private.id, [pair, pair], chunks=2, skipped=0, scanned_at=NOW)
    assert store.conflict_pairs(Access.local()) == [pair]


def test_deleting_a_side_removes_its_pairs(store: Store, two: Two) -> None:
    public, _, _ = two
    store.delete_document(public.id, Access.local())
    assert store.conflict_pairs(Access.local()) == []


def test_storing_a_side_afresh_removes_its_pairs_and_its_scan(store: Store, two: Two) -> None:
    _, private, _ = two
    assert store.unscanned_documents() == []
    store.store_parsed(private.stored)  # a job's parse step stores the chunks again
    assert store.conflict_pairs(Access.local()) == []
    assert store.unscanned_documents() == [private.id]


def test_a_scan_with_skips_is_done_again(store: Store, two: Two) -> None:
    public, _, _ = two
    store.record_scan(public.id, [], chunks=2, skipped=1, scanned_at=NOW)
    assert store.unscanned_documents() == [public.id]


def test_a_pair_whose_chunk_is_gone_is_not_written(store: Store, two: Two) -> None:
    public, private, pair = two
    store.delete_document(public.id, Access.local())
    store.record_scan(private.id, [pair], chunks=2, skipped=0, scanned_at=NOW)
    assert store.conflict_pairs(Access.local()) == []
