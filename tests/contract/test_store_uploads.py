"""The upload store contract, on every backend: an upload is its owner's, its offset and its
completion move only by conditional updates (two requests racing over one upload cannot both
win), and the sweeps find the complete-but-unsettled and the expired ones."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from askalong.errors import NotFound
from askalong.store.uploads import UploadStore
from askalong.types import Access
from askalong.values.uploads import ResumableUpload

ALICE = Access(user="alice")


def upload(
    upload_id: str, *, length: int = 10, expires: str = "2026-12-05T00:00:00+00:00"
) -> ResumableUpload:
    return ResumableUpload(
        id=upload_id,
        owner="alice",
        length=length,
        received=0,
        name="notes.md",
        metadata="filename bm90ZXMubWQ=",
        sha256="",
        state="receiving",
        document_id=None,
        error="",
        created="2026-12-04T00:00:00+00:00",
        expires=expires,
    )


def test_an_upload_is_its_owners_alone(store: UploadStore) -> None:
    store.create_upload(upload("u1"))
    assert store.get_upload("u1", ALICE) == upload("u1")
    assert store.get_upload("u1", Access.local()).owner == "alice"  # everything
    with pytest.raises(NotFound):
        store.get_upload("u1", Access(user="bob"))
    assert store.pending_uploads("alice") == 1 and store.pending_uploads("bob") == 0


def test_the_offset_moves_only_from_where_it_is(store: UploadStore) -> None:
    store.create_upload(upload("u1"))
    assert store.advance_upload("u1", 0, 4)
    assert not store.advance_upload("u1", 0, 6)  # another request moved it first
    assert store.advance_upload("u1", 4, 10)
    assert store.get_upload("u1", ALICE).received == 10


def test_a_complete_upload_is_claimed_once_among_racing_requests(store: UploadStore) -> None:
    store.create_upload(upload("u1"))
    assert not store.claim_upload("u1")  # not all bytes in yet
    assert store.advance_upload("u1", 0, 10)
    wins: list[bool] = []
    start = threading.Barrier(4)

    def claim() -> None:
        start.wait()
        wins.append(store.claim_upload("u1"))

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(wins) == [False, False, False, True]
    assert not store.advance_upload("u1", 10, 10)  # complete: takes no more bytes
    assert [u.id for u in store.unsettled_uploads()] == ["u1"]
    store.settle_upload("u1", "doc-1")
    settled = store.get_upload("u1", ALICE)
    assert (settled.state, settled.document_id) == ("added", "doc-1")
    assert store.unsettled_uploads() == [] and store.pending_uploads("alice") == 0


def test_a_failed_upload_keeps_its_reason(store: UploadStore) -> None:
    store.create_upload(upload("u1", length=0))
    assert store.claim_upload("u1")
    store.settle_upload("u1", None, "not a document")
    failed = store.get_upload("u1", ALICE)
    assert (failed.state, failed.document_id, failed.error) == ("failed", None, "not a document")


def test_the_expired_unfinished_uploads_are_found_and_deleted(store: UploadStore) -> None:
    store.create_upload(upload("old", expires="2026-12-01T00:00:00+00:00"))
    store.create_upload(upload("new", expires="2026-12-09T00:00:00+00:00"))
    store.create_upload(upload("done", length=0, expires="2026-12-01T00:00:00+00:00"))
    assert store.claim_upload("done")
    assert store.expired_uploads(datetime(2026, 12, 4, tzinfo=UTC)) == ["old"]
    assert store.delete_upload("old") and not store.delete_upload("old")
    with pytest.raises(NotFound):
        store.get_upload("old", ALICE)
