"""Feedback as evaluation items, one JSON object a line, in the form ``askalong eval kb``
reads: ``{"id", "question", "category", "expected", "gold_chunk_ids", "gold_evidence":
[{"document", "text"}], "asker", "source": "feedback", "note"}``.

What a record says about the right behaviour: a thumbs-up on an answer, answer it with
that evidence; on a "not covered", refuse; a thumbs-down triaged as a generation fault,
answer it, and the cited parents hold the evidence; any other thumbs-down, answer it, the
evidence unknown (no gold). The asker is left out unless the admin asks for it, and so is
the text quoted from a document in ``hidden`` (another user's private one): its chunk ids
stay the gold."""

from __future__ import annotations

from collections.abc import Container
from typing import Literal

from typing_extensions import TypedDict

from askalong.values.feedback import Feedback

CATEGORY = "from_feedback"


class GoldEvidence(TypedDict):
    document: str
    text: str


class EvalItem(TypedDict):
    id: str
    question: str
    category: str
    expected: Literal["answer", "refuse"]
    gold_chunk_ids: list[str]
    gold_evidence: list[GoldEvidence]
    asker: str | None
    source: Literal["feedback"]
    note: str


def eval_item(
    record: Feedback, *, include_users: bool = False, hidden: Container[str] = frozenset()
) -> EvalItem:
    judged = record.judged
    refuse = record.rating == "up" and judged.status == "not_covered"
    evidence_known = judged.status == "answered" and (
        record.rating == "up"
        or (record.triage is not None and record.triage.label == "generation_fault")
    )
    cited = judged.citations if evidence_known else ()
    return {
        "id": f"feedback-{record.id}",
        "question": judged.question,
        "category": CATEGORY,
        "expected": "refuse" if refuse else "answer",
        "gold_chunk_ids": list(dict.fromkeys(cid for c in cited for cid in c.chunk_ids)),
        "gold_evidence": [
            {"document": c.title, "text": c.text} for c in cited if c.document_id not in hidden
        ],
        "asker": record.owner if include_users else None,
        "source": "feedback",
        "note": record.reason,
    }
