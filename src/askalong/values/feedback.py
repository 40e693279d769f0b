"""The feedback values (pure): a rating with its reason on one stored turn, the frozen copy
of what was judged (question, answer, citations with their chunks and hashes, the ranked
hits with every route's scores, the retrieval mode and its fallbacks, model, answerer,
timings) and, for a thumbs-down, its triage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from askalong.types import AnswerStatus, Hit, Timings

Rating = Literal["up", "down"]
RATINGS: tuple[Rating, ...] = ("up", "down")
TriageLabel = Literal["retrieval_miss", "retrieval_fault", "generation_fault"]
TRIAGE_LABELS: tuple[TriageLabel, ...] = ("retrieval_miss", "retrieval_fault", "generation_fault")
FeedbackSource = Literal["api", "cli", "agent"]
MAX_REASON_CHARS = 2_000


@dataclass(frozen=True)
class Citation:
    """A quote the answer cited: where it is, its text's hash and the chunks holding it."""

    number: int
    document_id: str
    title: str
    page: int | None
    block_id: str
    start: int
    end: int
    text: str
    text_sha256: str
    chunk_ids: tuple[str, ...]
    chunk_sha256: tuple[str, ...]  # one per chunk id: the chunk's text when judged


@dataclass(frozen=True)
class RankedChunk:
    """A hit the answer was drawn from, at its 1-based rank: the ``Hit`` itself (every
    route's score and rank, so the copy has the hit's fields by construction), with its
    document's title and its chunk's text hash when judged."""

    rank: int
    hit: Hit
    title: str
    text_sha256: str


@dataclass(frozen=True)
class Judged:
    """The answer as it was when judged: it stays so whatever later happens to the thread,
    its documents or the index."""

    question: str
    answer: str
    status: AnswerStatus
    explanation: str
    citations: tuple[Citation, ...]
    retrieved: tuple[RankedChunk, ...]
    retrieval_mode: str  # "hybrid" | "keyword" | "vector" | "mixed" | "none"
    fallbacks: tuple[str, ...]  # the notes that say a route fell back (keyword only, ...)
    answerer: str
    model: str | None
    route: str | None
    timings: Timings


@dataclass(frozen=True)
class Triage:
    """Why a thumbs-down answer went wrong, as far as can be told, and on what evidence."""

    label: TriageLabel
    reason: str
    evidence: tuple[str, ...]
    judge: str  # "terms" (offline) or the model's name


@dataclass(frozen=True)
class Feedback:
    id: str
    owner: str
    conversation_id: str
    turn_id: str
    rating: Rating
    reason: str
    judged: Judged
    created: str
    source: FeedbackSource = "api"
    triage: Triage | None = None


@dataclass(frozen=True)
class FeedbackFilter:
    """What the admin view narrows the records to (None: any)."""

    label: TriageLabel | None = None
    owner: str | None = None
    rating: Rating | None = None
    since: str | None = None  # ISO date or time, inclusive
    until: str | None = None  # ISO date or time; a bare date includes that whole day
    with_reason: bool = False  # only records whose reason is not empty
    by_hand: bool = False  # only records the person gave (the API, the CLI), not the agent's
    limit: int = 200
