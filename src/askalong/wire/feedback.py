"""The JSON form of feedback: the record, the frozen copy of what was judged (stored as
this JSON in the feedback table too, and read back by ``judged_from_json``) and the
triage of a thumbs-down."""

from __future__ import annotations

from typing import cast

from typing_extensions import TypedDict

from askalong.types import AnswerStatus
from askalong.values.feedback import (
    Feedback,
    FeedbackSource,
    Judged,
    Rating,
    Triage,
    TriageLabel,
)
from askalong.wire.answers import RankedHitJSON, TimingsJSON
from askalong.wire.derived import value_from_json, value_json


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


def judged_json(j: Judged) -> JudgedJSON:
    return cast(JudgedJSON, value_json(j))


def triage_json(t: Triage | None) -> TriageJSON | None:
    return None if t is None else cast(TriageJSON, value_json(t))


def feedback_json(f: Feedback) -> FeedbackJSON:
    return cast(FeedbackJSON, value_json(f))


def judged_from_json(v: JudgedJSON) -> Judged:
    return value_from_json(Judged, v)


def triage_from_json(v: TriageJSON | None) -> Triage | None:
    return None if v is None else value_from_json(Triage, v)
