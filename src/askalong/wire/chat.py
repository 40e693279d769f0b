"""The JSON form of a chat answer (``askalong chat --json``, the chat route's ``done``
event): the answer and its parts, the cited sources with their verdicts, the claims, the
tool steps, the limits hit, citation precision and recall, the timings."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from typing_extensions import TypedDict

from askalong.types import AnswerStatus, Verdict
from askalong.wire.answers import ClaimJSON, ConflictNoticeJSON, claim_json, conflict_notice_json
from askalong.wire.derived import value_json
from askalong.wire.documents import SpanJSON
from askalong.wire.titles import shown_title

if TYPE_CHECKING:  # annotations only: the wire forms import values, not the stages
    from askalong.values.chat_answers import ChatAnswer, ChatPart, ChatSource, ToolStep


class ChatPartJSON(TypedDict):
    question: str
    status: AnswerStatus
    answer: str  # cites the answer's source numbers, [n]
    sources: list[int]
    route: str | None  # the answer's route, as ``ask`` gives it: FROM_CODE_ROUTES is code


class ChatSourceJSON(TypedDict):
    """Source ``number`` as cited: ``text`` is exactly the block's text at ``span``."""

    number: int
    document_id: str
    title: str
    page: int | None
    section_path: list[str]
    span: SpanJSON
    text: str
    verdict: Verdict
    reasons: list[str]


class ToolStepJSON(TypedDict):
    name: str
    arguments: dict[str, str | int]
    summary: str
    sources: list[int]
    ms: float
    error: str


class ChatTimingsJSON(TypedDict):
    search_ms: float
    answer_ms: float
    total_ms: float


class ChatJSON(TypedDict):
    status: AnswerStatus
    question: str
    answer: str
    mode: str  # "offline" | "model"
    model: str | None
    parts: list[ChatPartJSON]
    sources: list[ChatSourceJSON]
    claims: list[ClaimJSON]
    steps: list[ToolStepJSON]
    limits_hit: list[str]
    rounds: int  # model replies, the final turn included; 0 offline
    citation_precision: float | None
    citation_recall: float | None
    conversation_id: str | None
    turn_id: str | None
    notes: list[str]
    timings: ChatTimingsJSON
    conflicts: list[ConflictNoticeJSON]  # cited sources that contradict each other


def chat_part_json(part: ChatPart) -> ChatPartJSON:
    return cast(ChatPartJSON, value_json(part))


def chat_source_json(source: ChatSource) -> ChatSourceJSON:
    return {
        "number": source.number,
        "document_id": source.document_id,
        "title": shown_title(source.title),
        "page": source.page,
        "section_path": list(source.section_path),
        "span": {"block_id": source.block_id, "start": source.start, "end": source.end},
        "text": source.text,
        "verdict": source.verdict,
        "reasons": list(source.reasons),
    }


def tool_step_json(step: ToolStep) -> ToolStepJSON:
    return {
        "name": step.name,
        "arguments": dict(step.arguments),
        "summary": step.summary,
        "sources": list(step.sources),
        "ms": round(step.ms, 1),
        "error": step.error,
    }


def chat_json(answer: ChatAnswer) -> ChatJSON:
    timings = answer.timings
    return {
        "status": answer.status,
        "question": answer.question,
        "answer": answer.answer,
        "mode": answer.mode,
        "model": answer.model,
        "parts": [chat_part_json(p) for p in answer.parts],
        "sources": [chat_source_json(s) for s in answer.sources],
        "claims": [claim_json(c) for c in answer.claims],
        "steps": [tool_step_json(s) for s in answer.steps],
        "limits_hit": list(answer.limits_hit),
        "rounds": answer.rounds,
        "citation_precision": answer.scores.precision,
        "citation_recall": answer.scores.recall,
        "conversation_id": answer.conversation_id,
        "turn_id": answer.turn_id,
        "notes": list(answer.notes),
        "timings": {
            "search_ms": round(timings.search_ms, 1),
            "answer_ms": round(timings.answer_ms, 1),
            "total_ms": round(timings.total_ms, 1),
        },
        "conflicts": [conflict_notice_json(c) for c in answer.conflicts],
    }
