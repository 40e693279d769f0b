"""Threads and turns in the store (contract, run against every backend)."""

from __future__ import annotations

import pytest

from askalong.errors import InputError, NotFound, StoreError
from askalong.store.base import ThreadStore
from askalong.types import Access, Anchor, Answer, Claim, Quote, Timings
from askalong.values.threads import Thread, Turn

ALICE = Access(user="alice")
BOB = Access(user="bob")


def _answer(question: str) -> Answer:
    quote = Quote(
        1,
        "doc1",
        "b3",
        4,
        20,
        "exact source text",
        page=2,
        section_path=("Intro",),
        verdict="supported",
    )
    return Answer(
        status="answered",
        question=question,
        answer="It is exact [1].",
        quotes=(quote,),
        explanation="Around it.",
        claims=(Claim("It is exact.", (1,), "supported", ("terms covered",)),),
        intent="explain",
        anchor=Anchor("doc1", "b3", 0, 10),
        thread_id="t1",
        turn_id=f"t1-{question}",
        timings=Timings(1.0, 2.0, 3.0, 6.0),
        notes=("中文 note",),
    )


def _turn(index: int, question: str, anchor: Anchor | None) -> Turn:
    return Turn(
        f"t1-{index}",
        "t1",
        index,
        question,
        "ask",
        anchor,
        _answer(question),
        f"2026-11-30T00:0{index}:00+00:00",
    )


def test_turns_round_trip_in_order(store: ThreadStore) -> None:
    thread = Thread(
        "t1",
        "alice",
        "What is it?",
        "2026-11-30T00:00:00+00:00",
        "2026-11-30T00:00:00+00:00",
        document_id="doc1",
    )
    store.save_turn(thread, _turn(0, "What is it?", Anchor("doc1", "b3", 0, 10)))
    store.save_turn(thread, _turn(1, "And then?", None))
    turns = store.turns("t1")
    assert [t.question for t in turns] == ["What is it?", "And then?"]
    assert turns[0].anchor == Anchor("doc1", "b3", 0, 10) and turns[1].anchor is None
    assert turns[0].answer == _answer("What is it?")
    saved = store.get_thread("t1", ALICE)
    assert saved.turn_count == 2 and saved.updated == turns[1].created


def test_threads_are_private_to_their_owner(store: ThreadStore) -> None:
    thread = Thread(
        "t1",
        "alice",
        "Q",
        "2026-11-30T00:00:00+00:00",
        "2026-11-30T00:00:00+00:00",
        document_id="doc1",
    )
    store.save_turn(thread, _turn(0, "Q", None))
    assert [t.id for t in store.list_threads(ALICE, document_id="doc1")] == ["t1"]
    assert store.list_threads(ALICE, document_id="other") == []
    assert store.list_threads(BOB) == []
    with pytest.raises(NotFound):
        store.get_thread("t1", BOB)
    assert store.get_thread("t1", Access.local()).owner == "alice"


def test_a_turn_index_is_taken_once(store: ThreadStore) -> None:
    thread = Thread("t1", "alice", "Q", "2026-11-30T00:00:00+00:00", "2026-11-30T00:00:00+00:00")
    store.save_turn(thread, _turn(0, "Q", None))
    with pytest.raises(StoreError, match="(?i)unique"):  # either driver's words
        store.save_turn(thread, Turn("other", "t1", 0, "Q2", "ask", None, _answer("Q2"), "x"))
    assert len(store.turns("t1")) == 1


def test_deleting_a_thread_takes_its_turns(store: ThreadStore) -> None:
    thread = Thread("t1", "alice", "Q", "2026-11-30T00:00:00+00:00", "2026-11-30T00:00:00+00:00")
    store.save_turn(thread, _turn(0, "Q", None))
    with pytest.raises(NotFound):
        store.delete_thread("t1", BOB)
    store.delete_thread("t1", ALICE)
    assert store.list_threads(ALICE) == [] and store.turns("t1") == ()
    with pytest.raises(NotFound):
        store.delete_thread("t1", ALICE)


def test_renaming_a_thread_is_its_owners_alone(store: ThreadStore) -> None:
    thread = Thread("t1", "alice", "Q", "2026-11-30T00:00:00+00:00", "2026-11-30T00:00:00+00:00")
    store.save_turn(thread, _turn(0, "Q", None))
    with pytest.raises(NotFound):
        store.rename_thread("t1", "Bob's now", BOB)
    with pytest.raises(InputError):
        store.rename_thread("t1", " \n ", ALICE)
    renamed = store.rename_thread("t1", "  Tides, 潮汐  ", ALICE)
    assert renamed.title == "Tides, 潮汐" and renamed.turn_count == 1
    saved = store.get_thread("t1", ALICE)
    assert saved.title == "Tides, 潮汐" and saved.updated == thread.updated
    with pytest.raises(NotFound):
        store.rename_thread("nope", "x", ALICE)
