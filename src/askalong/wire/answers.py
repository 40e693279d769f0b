"""The JSON form of a grounded answer: the answer first, then its quotes (each exactly the
block's text at its span), then the explanation, the claims and their verdicts; the
passages the answerer was given; and the answer read back from a stored turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from typing_extensions import TypedDict

from askalong.types import (
    Answer,
    AnswerPassage,
    AnswerSpan,
    AnswerStatus,
    BlockSpan,
    Claim,
    ConflictNotice,
    Hit,
    Intent,
    Quote,
    RetrievalMode,
    SetAside,
    Timings,
    Verdict,
)
from askalong.wire.anchors import AnchorJSON, anchor_from_json, anchor_json
from askalong.wire.documents import SpanJSON, span_json
from askalong.wire.flat import flat_json, from_flat

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
    return cast(QuoteJSON, flat_json(quote))


def claim_json(claim: Claim) -> ClaimJSON:
    return {
        "text": claim.text,
        "quotes": list(claim.quote_numbers),
        "verdict": claim.verdict,
        "reasons": list(claim.reasons),
    }


def answer_passage_json(passage: AnswerPassage | None) -> AnswerPassageJSON | None:
    if passage is None:
        return None
    return {
        "document_id": passage.document_id,
        "text": passage.text,
        "spans": [span_json(s) for s in passage.spans],
        "answer_spans": [
            {"start": m.start, "end": m.end, "quote": m.quote} for m in passage.answer_spans
        ],
        "page": passage.page,
        "section_path": list(passage.section_path),
    }


def answer_passage_from_json(value: AnswerPassageJSON | None) -> AnswerPassage | None:
    if value is None:
        return None
    return AnswerPassage(
        document_id=value["document_id"],
        text=value["text"],
        spans=tuple(BlockSpan(s["block_id"], s["start"], s["end"]) for s in value["spans"]),
        answer_spans=tuple(
            AnswerSpan(m["start"], m["end"], m["quote"]) for m in value["answer_spans"]
        ),
        page=value["page"],
        section_path=tuple(value["section_path"]),
    )


def conflict_notice_json(notice: ConflictNotice) -> ConflictNoticeJSON:
    return cast(ConflictNoticeJSON, flat_json(notice))


def conflict_notice_from_json(value: ConflictNoticeJSON) -> ConflictNotice:
    return from_flat(ConflictNotice, value)


def timings_json(timings: Timings) -> TimingsJSON:
    return cast(TimingsJSON, flat_json(timings))


def ranked_hit_json(hit: Hit) -> RankedHitJSON:
    return cast(RankedHitJSON, flat_json(hit))


def ranked_hit_from_json(value: RankedHitJSON) -> Hit:
    """The hit of ``value``, whose other keys (a frozen copy's rank, title, ...) it ignores."""
    return from_flat(Hit, value)


def answer_json(answer: Answer) -> AnswerJSON:
    """Answer first, then the quotes that support it, then the explanation."""
    return {
        "status": answer.status,
        "question": answer.question,
        "answer": answer.answer,
        "quotes": [quote_json(q) for q in answer.quotes],
        "explanation": answer.explanation,
        "claims": [claim_json(c) for c in answer.claims],
        "intent": answer.intent,
        "anchor": anchor_json(answer.anchor),
        "thread_id": answer.thread_id,
        "turn_id": answer.turn_id,
        "answerer": answer.answerer,
        "model": answer.model,
        "route": answer.route,
        "searched": list(answer.searched),
        "notes": list(answer.notes),
        "timings": timings_json(answer.timings),
        "anchor_set_aside": answer.anchor_set_aside,
        "conflicts": [conflict_notice_json(c) for c in answer.conflicts],
        "hits": [ranked_hit_json(h) for h in answer.hits],
        "passage": answer_passage_json(answer.passage),
    }


def answer_from_json(value: AnswerJSON) -> Answer:
    return Answer(
        status=value["status"],
        question=value["question"],
        answer=value["answer"],
        quotes=tuple(_quote(q) for q in value["quotes"]),
        explanation=value["explanation"],
        claims=tuple(
            Claim(c["text"], tuple(c["quotes"]), c["verdict"], tuple(c["reasons"]))
            for c in value["claims"]
        ),
        intent=value["intent"],
        anchor=anchor_from_json(value["anchor"]),
        thread_id=value["thread_id"],
        turn_id=value["turn_id"],
        answerer=value["answerer"],
        model=value["model"],
        route=value["route"],
        searched=tuple(value["searched"]),
        notes=tuple(value["notes"]),
        timings=from_flat(Timings, value["timings"]),
        anchor_set_aside=value.get("anchor_set_aside"),  # absent from turns stored before it
        conflicts=tuple(conflict_notice_from_json(c) for c in value.get("conflicts", [])),
        hits=tuple(ranked_hit_from_json(h) for h in value.get("hits", [])),  # likewise
        passage=answer_passage_from_json(value.get("passage")),  # likewise
    )


def _quote(value: QuoteJSON) -> Quote:
    return from_flat(Quote, value)
