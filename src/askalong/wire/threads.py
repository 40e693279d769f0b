"""The JSON forms of a thread: its head, a summary as thread lists show it, and the whole
thread with each turn's question, placed anchor and answer."""

from __future__ import annotations

from typing_extensions import TypedDict

from askalong.types import Intent
from askalong.values.threads import Thread, Turn
from askalong.wire.anchors import PlacedAnchorJSON
from askalong.wire.answers import AnswerJSON, answer_json


class _ThreadHead(TypedDict):
    """A thread's head: ``title`` is its first question."""

    id: str
    document_id: str | None
    title: str
    created: str
    updated: str


class ThreadSummaryJSON(_ThreadHead):
    """A thread in a list: how many turns it has and where its last turn was anchored."""

    turns: int
    anchor: PlacedAnchorJSON | None


class TurnJSON(TypedDict):
    """One question of a thread, its anchor and the answer JSON given to it."""

    id: str
    index: int
    question: str
    intent: Intent
    anchor: PlacedAnchorJSON | None
    answer: AnswerJSON
    created: str


class ThreadJSON(_ThreadHead):
    """A thread with its turns in order."""

    turns: list[TurnJSON]


def _thread_head(thread: Thread) -> _ThreadHead:
    return {
        "id": thread.id,
        "document_id": thread.document_id,
        "title": thread.title,
        "created": thread.created,
        "updated": thread.updated,
    }


def thread_summary_json(
    thread: Thread, turns: int, anchor: PlacedAnchorJSON | None
) -> ThreadSummaryJSON:
    return {**_thread_head(thread), "turns": turns, "anchor": anchor}


def thread_json(thread: Thread, turns: list[TurnJSON]) -> ThreadJSON:
    return {**_thread_head(thread), "turns": turns}


def turn_json(turn: Turn, anchor: PlacedAnchorJSON | None) -> TurnJSON:
    """``anchor`` is the turn's anchor placed by the caller, who can look its block up."""
    return {
        "id": turn.id,
        "index": turn.index,
        "question": turn.question,
        "intent": turn.intent,
        "anchor": anchor,
        "answer": answer_json(turn.answer),
        "created": turn.created,
    }
