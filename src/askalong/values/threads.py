"""The conversations: a thread and its turns, each turn a question with its answer, kept by
the store private to their owner (``ThreadStore``)."""

from __future__ import annotations

from dataclasses import dataclass

from askalong.types import Anchor, Answer, Intent


@dataclass(frozen=True)
class Thread:
    """A conversation: follow-ups stay anchored where the last turn was asked."""

    id: str
    owner: str
    title: str  # the first question
    created: str
    updated: str
    document_id: str | None = None  # the document it was opened on (read along)
    turn_count: int = 0


@dataclass(frozen=True)
class Turn:
    id: str
    thread_id: str
    index: int  # 0-based position in the thread
    question: str
    intent: Intent
    anchor: Anchor | None
    answer: Answer
    created: str
