"""Feedback in the store (contract, run against every backend): private to its owner like
a thread, one record per owner and turn (a second rating replaces the first and keeps its
id), the frozen copy read back as written, the admin's filters, triage set later."""

from __future__ import annotations

from dataclasses import replace

import pytest
import wire_forms

from askalong.errors import NotFound
from askalong.store.base import Store
from askalong.types import Access
from askalong.values.feedback import Feedback, FeedbackFilter, Triage

ALICE = Access(user="alice")
BOB = Access(user="bob")


def _item(owner: str, turn: str, rating: str, reason: str, created: str) -> Feedback:
    base = wire_forms.feedback()
    triage = base.triage if rating == "down" else None
    return replace(
        base,
        id=f"{owner}-{turn}-{created}",
        owner=owner,
        turn_id=turn,
        rating="down" if rating == "down" else "up",
        reason=reason,
        created=created,
        triage=triage,
    )


def test_records_are_private_and_read_back_frozen(store: Store) -> None:
    mine = store.save_feedback(_item("alice", "u1", "down", "too long", "2026-12-01T10:00"))
    assert store.get_feedback(mine.id, ALICE) == mine
    assert mine.judged == wire_forms.feedback().judged  # the frozen copy, field for field
    with pytest.raises(NotFound):
        store.get_feedback(mine.id, BOB)
    assert store.list_feedback(BOB) == []
    assert [f.id for f in store.list_feedback(Access.local())] == [mine.id]


def test_one_record_per_turn_the_newest_wins(store: Store) -> None:
    first = store.save_feedback(_item("alice", "u1", "down", "wrong", "2026-12-01T10:00"))
    again = store.save_feedback(_item("alice", "u1", "up", "", "2026-12-01T11:00"))
    assert again.id == first.id
    (kept,) = store.list_feedback(ALICE)
    assert (kept.rating, kept.reason, kept.triage) == ("up", "", None)
    other = store.save_feedback(_item("bob", "u1", "down", "", "2026-12-01T12:00"))
    assert other.id != first.id  # another asker's record on the same turn is their own


def test_filters_newest_first(store: Store) -> None:
    for n, (owner, rating, reason) in enumerate(
        [
            ("alice", "down", "short"),
            ("alice", "up", ""),
            ("bob", "down", ""),
            ("alice", "down", ""),
        ]
    ):
        store.save_feedback(_item(owner, f"u{n}", rating, reason, f"2026-12-0{n + 1}T10:00"))
    everyone = Access.local()
    assert [f.turn_id for f in store.list_feedback(everyone)] == ["u3", "u2", "u1", "u0"]
    assert [f.turn_id for f in store.list_feedback(ALICE)] == ["u3", "u1", "u0"]
    by_bob = FeedbackFilter(owner="bob")
    assert [f.turn_id for f in store.list_feedback(everyone, by_bob)] == ["u2"]
    label = FeedbackFilter(label="generation_fault")
    assert [f.turn_id for f in store.list_feedback(everyone, label)] == ["u3", "u2", "u0"]
    days = FeedbackFilter(since="2026-12-02", until="2026-12-03")
    assert [f.turn_id for f in store.list_feedback(everyone, days)] == ["u2", "u1"]
    reasons = FeedbackFilter(with_reason=True)
    assert [f.turn_id for f in store.list_feedback(ALICE, reasons)] == ["u0"]
    assert len(store.list_feedback(everyone, FeedbackFilter(limit=2))) == 2


def test_triage_is_set_later(store: Store) -> None:
    saved = store.save_feedback(_item("alice", "u1", "down", "", "2026-12-01T10:00"))
    triage = Triage("retrieval_fault", "lacks the terms", ("missing: x",), "m")
    store.set_triage(saved.id, triage)
    assert store.get_feedback(saved.id, ALICE).triage == triage
    label = FeedbackFilter(label="retrieval_fault")
    assert [f.id for f in store.list_feedback(ALICE, label)] == [saved.id]
