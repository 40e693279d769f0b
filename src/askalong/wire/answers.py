"""The JSON form of a grounded answer: the answer first, then its quotes (each exactly the
block's text at its span), then the explanation, the claims and their verdicts; the
passages the answerer was given; and the answer read back from a stored turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from typing_extensions import TypedDict

from askalong.types import (
    Answer,
    AnswerStatus,
    Claim,
    ConflictNotice,
    Intent,
    Quote,
    RetrievalMode,
    SetAside,
    Verdict,
)
from askalong.wire.anchors import AnchorJSON
from askalong.wire.derived import value_from_json, value_json
from askalong.wire.documents import SpanJSON, span_json

if TYPE_CHECKING:  # annotations only: the wire forms must not pull the context stage in
    from askalong.context.units import ContextUnit


class PassageJSON(TypedDict):
    """One piece of evidence the answerer was given, by where it is, without its text."""

    document_id: str
    origin: str  # "anchor" | "retrieved" | "crossref"
    page_start: int | None
    page_end: int | None
    section_path: list[str]
    spans: list[SpanJSON]


class QuoteJSON(TypedDict):
    """A quote: ``text`` is always exactly the block's text at ``start:end``."""

    number: int
    document_id: str
    block_id: str
    start: int
    end: int
    text: str
    page: int | None
    section_path: list[str]
    verdict: Verdict


class ClaimJSON(TypedDict):
    """A sentence of the answer, the quote numbers it cites and how well they support it."""

    text: str
    quotes: list[int]
    verdict: Verdict
    reasons: list[str]


class AnswerSpanJSON(TypedDict):
    """Quote ``quote`` of the answer at ``text[start:end]`` of its passage."""

    start: int
    end: int
    quote: int


class AnswerPassageJSON(TypedDict):
    """The paragraph the direct answer sits in: ``text`` is ``spans`` (block spans, in
    reading order) joined by a newline; ``answer_spans`` mark the answer in it."""

    document_id: str
    text: str
    spans: list[SpanJSON]
    answer_spans: list[AnswerSpanJSON]
    page: int | None
    section_path: list[str]


class ConflictNoticeJSON(TypedDict):
    """Citations ``first`` and ``second`` contradict each other: each side's own tokens."""

    first: int
    second: int
    kind: str
    first_tokens: list[str]
    second_tokens: list[str]


class TimingsJSON(TypedDict):
    retrieval_ms: float
    answer_ms: float
    verify_ms: float
    total_ms: float


class RankedHitJSON(TypedDict):
    """A hit the answer was drawn from, in rank order, by id and scores only (no text):
    a route's score and rank are null when it did not find the chunk or did not run."""

    chunk_id: str
    document_id: str
    score: float
    mode: RetrievalMode
    keyword_score: float | None
    keyword_rank: int | None
    vector_score: float | None
    vector_rank: int | None
    rerank_score: float | None


class AnswerJSON(TypedDict):
    """A grounded answer: the answer first, then its quotes, then the explanation."""

    status: AnswerStatus
    question: str
    answer: str
    quotes: list[QuoteJSON]
    explanation: str
    claims: list[ClaimJSON]
    intent: Intent
    anchor: AnchorJSON | None
    thread_id: str | None
    turn_id: str | None
    answerer: str
    model: str | None
    route: str | None
    searched: list[str]
    notes: list[str]
    timings: TimingsJSON
    anchor_set_aside: SetAside | None
    conflicts: list[ConflictNoticeJSON]
    hits: list[RankedHitJSON]
    passage: AnswerPassageJSON | None


def passage_json(unit: ContextUnit) -> PassageJSON:
    return {
        "document_id": unit.document_id,
        "origin": unit.origin,
        "page_start": unit.page_start,
        "page_end": unit.page_end,
        "section_path": list(unit.section_path),
        "spans": [span_json(s) for s in unit.spans],
    }


def quote_json(quote: Quote) -> QuoteJSON:
    return cast(QuoteJSON, value_json(quote))


def claim_json(claim: Claim) -> ClaimJSON:
    return cast(ClaimJSON, value_json(claim))


def conflict_notice_json(notice: ConflictNotice) -> ConflictNoticeJSON:
    return cast(ConflictNoticeJSON, value_json(notice))


def answer_json(answer: Answer) -> AnswerJSON:
    """Answer first, then the quotes that support it, then the explanation."""
    return cast(AnswerJSON, value_json(answer))


def answer_from_json(value: AnswerJSON) -> Answer:
    """The answer of a stored turn; keys absent from turns stored before them (the anchor's
    setting aside, conflicts, hits, the passage) keep their defaults."""
    return value_from_json(Answer, value)
