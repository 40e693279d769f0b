"""The JSON form of feedback: the record, the frozen copy of what was judged (stored as
this JSON in the feedback table too, and read back by ``judged_from_json``) and the
triage of a thumbs-down."""

from __future__ import annotations

from typing import cast

from typing_extensions import TypedDict

from askalong.types import AnswerStatus, Timings
from askalong.values.feedback import (
    Citation,
    Feedback,
    FeedbackSource,
    Judged,
    RankedChunk,
    Rating,
    Triage,
    TriageLabel,
)
from askalong.wire.answers import (
    RankedHitJSON,
    TimingsJSON,
    ranked_hit_from_json,
    ranked_hit_json,
    timings_json,
)
from askalong.wire.flat import flat_json, from_flat


class CitationJSON(TypedDict):
    number: int
    document_id: str
    title: str
    page: int | None
    block_id: str
    start: int
    end: int
    text: str
    text_sha256: str
    chunk_ids: list[str]
    chunk_sha256: list[str]


class RankedChunkJSON(RankedHitJSON):
    """A ranked hit as the frozen copy keeps it: the hit's own form with its rank, its
    document's title and its chunk's text hash."""

    rank: int
    title: str
    text_sha256: str


class JudgedJSON(TypedDict):
    question: str
    answer: str
    status: AnswerStatus
    explanation: str
    citations: list[CitationJSON]
    retrieved: list[RankedChunkJSON]
    retrieval_mode: str
    fallbacks: list[str]
    answerer: str
    model: str | None
    route: str | None
    timings: TimingsJSON


class TriageJSON(TypedDict):
    label: TriageLabel
    reason: str
    evidence: list[str]
    judge: str


class FeedbackJSON(TypedDict):
    id: str
    owner: str
    conversation_id: str
    turn_id: str
    rating: Rating
    reason: str
    created: str
    source: FeedbackSource
    triage: TriageJSON | None
    judged: JudgedJSON


def citation_json(c: Citation) -> CitationJSON:
    return cast(CitationJSON, flat_json(c))


def ranked_chunk_json(r: RankedChunk) -> RankedChunkJSON:
    return {
        "rank": r.rank,
        **ranked_hit_json(r.hit),
        "title": r.title,
        "text_sha256": r.text_sha256,
    }


def judged_json(j: Judged) -> JudgedJSON:
    return {
        "question": j.question,
        "answer": j.answer,
        "status": j.status,
        "explanation": j.explanation,
        "citations": [citation_json(c) for c in j.citations],
        "retrieved": [ranked_chunk_json(r) for r in j.retrieved],
        "retrieval_mode": j.retrieval_mode,
        "fallbacks": list(j.fallbacks),
        "answerer": j.answerer,
        "model": j.model,
        "route": j.route,
        "timings": timings_json(j.timings),
    }


def triage_json(t: Triage | None) -> TriageJSON | None:
    return None if t is None else cast(TriageJSON, flat_json(t))


def feedback_json(f: Feedback) -> FeedbackJSON:
    return {
        "id": f.id,
        "owner": f.owner,
        "conversation_id": f.conversation_id,
        "turn_id": f.turn_id,
        "rating": f.rating,
        "reason": f.reason,
        "created": f.created,
        "source": f.source,
        "triage": triage_json(f.triage),
        "judged": judged_json(f.judged),
    }


def judged_from_json(v: JudgedJSON) -> Judged:
    return Judged(
        question=v["question"],
        answer=v["answer"],
        status=v["status"],
        explanation=v["explanation"],
        citations=tuple(_citation(c) for c in v["citations"]),
        retrieved=tuple(_ranked(r) for r in v["retrieved"]),
        retrieval_mode=v["retrieval_mode"],
        fallbacks=tuple(v["fallbacks"]),
        answerer=v["answerer"],
        model=v["model"],
        route=v["route"],
        timings=from_flat(Timings, v["timings"]),
    )


def triage_from_json(v: TriageJSON | None) -> Triage | None:
    return None if v is None else from_flat(Triage, v)


def _citation(c: CitationJSON) -> Citation:
    return from_flat(Citation, c)


def _ranked(r: RankedChunkJSON) -> RankedChunk:
    return RankedChunk(r["rank"], ranked_hit_from_json(r), r["title"], r["text_sha256"])
