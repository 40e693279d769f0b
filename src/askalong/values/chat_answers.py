"""The chat answer's values (pure): the agent's answer with its parts, its numbered sources
and their verdicts, the tool steps taken, the limits hit, the citation scores and timings,
and the search hits of its sources (stored with the turn, for feedback's frozen copy).
``askalong.wire.chat`` is their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from askalong.types import AnswerStatus, Claim, ConflictNotice, Hit, Quote, Verdict

ChatMode = Literal["offline", "model"]
ToolName = Literal["search_knowledge", "generate_summary", "submit_feedback", "knowledge_stats"]


@dataclass(frozen=True)
class CitationScores:
    """ALCE-style citation precision and recall (``agent/citation_scores`` computes them)."""

    precision: float | None
    recall: float | None
    statements: int
    citations: int


@dataclass(frozen=True)
class ToolStep:
    """One tool call: its arguments as validated, what it found (``summary``: "3
    passages"), the source numbers it returned, its time and its error (if it failed)."""

    name: ToolName
    arguments: Mapping[str, str | int]
    summary: str
    sources: tuple[int, ...] = ()
    ms: float = 0.0
    error: str = ""


@dataclass(frozen=True)
class ChatSource:
    """Source ``number`` as cited: where its first cited quote is, and the verdict of its
    quotes (the weakest, when several were cited)."""

    number: int
    document_id: str
    title: str
    page: int | None
    section_path: tuple[str, ...]
    block_id: str
    start: int
    end: int
    text: str
    verdict: Verdict
    reasons: tuple[str, ...] = ()

    @classmethod
    def quoting(
        cls, quote: Quote, title: str, verdict: Verdict, reasons: tuple[str, ...] = ()
    ) -> ChatSource:
        """Source ``quote.number`` shown at ``quote``'s span."""
        return cls(
            number=quote.number,
            document_id=quote.document_id,
            title=title,
            page=quote.page,
            section_path=quote.section_path,
            block_id=quote.block_id,
            start=quote.start,
            end=quote.end,
            text=quote.text,
            verdict=verdict,
            reasons=reasons,
        )


@dataclass(frozen=True)
class ChatPart:
    """One part of the question, answered on its own, citing the answer's numbers.
    ``route`` is the route of the answer it was drawn from, as an ``ask`` answer carries it
    (a code answer's, ``asking/code_routes``: the chat shows it as code); None for a part
    not drawn from one (a model's reply, the knowledge base's counts)."""

    question: str
    status: AnswerStatus
    answer: str
    sources: tuple[int, ...] = ()
    route: str | None = None


@dataclass(frozen=True)
class ChatTimings:
    search_ms: float = 0.0
    answer_ms: float = 0.0
    total_ms: float = 0.0


@dataclass(frozen=True)
class ChatAnswer:
    status: AnswerStatus  # answered when any part is
    question: str
    answer: str
    parts: tuple[ChatPart, ...]
    sources: tuple[ChatSource, ...]
    claims: tuple[Claim, ...]
    steps: tuple[ToolStep, ...]
    scores: CitationScores
    mode: ChatMode = "offline"
    model: str | None = None
    limits_hit: tuple[str, ...] = ()
    rounds: int = 0  # model replies (the final turn included); 0 offline
    conversation_id: str | None = None
    turn_id: str | None = None
    notes: tuple[str, ...] = ()
    timings: ChatTimings = field(default_factory=ChatTimings)
    conflicts: tuple[ConflictNotice, ...] = ()  # cited sources that contradict each other
    hits: tuple[Hit, ...] = ()  # every source's search hits, by source number
