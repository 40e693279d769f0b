"""The stable JSON forms of AskAlong's public values: what `--json` prints, what the HTTP
API returns and what stored threads keep. Fields are added, never renamed or removed
(documented in the README, "JSON output")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from askalong.types import (
    Anchor,
    Answer,
    Block,
    Chunk,
    Claim,
    Document,
    Quote,
    Thread,
    Timings,
)

if TYPE_CHECKING:  # annotations only: the wire forms must not pull these modules in
    from askalong.context.units import ContextUnit
    from askalong.evaluate.retrieval import RetrievalReport

# The documented field names (README, "JSON output"; the API docstrings) where each one is
# the attribute of the same name, unchanged.
THREAD_FIELDS = ("id", "document_id", "title", "created", "updated")
PASSAGE_FIELDS = ("document_id", "origin", "page_start", "page_end")
SPAN_FIELDS = ("block_id", "start", "end")
RETRIEVAL_REPORT_FIELDS = (
    "dataset",
    "mode",
    "queries",
    "ndcg10",
    "recall1",
    "recall5",
    "recall10",
    "mrr10",
    "queries_per_second",
)


def _fields(value: object, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(value, name) for name in names}


def document_json(doc: Document) -> dict[str, Any]:
    return {
        "id": doc.id,
        "title": doc.title,
        "source": doc.source,
        "format": doc.format,
        "language": doc.language,
        "pages": doc.page_count,
        "size_bytes": doc.size_bytes,
        "created": doc.created,
        "owner": doc.owner,
        "visibility": doc.visibility,
        "org_tags": list(doc.org_tags),
        "ocr_pages": list(doc.ocr_pages),
        "notices": list(doc.notices),
    }


def block_json(block: Block) -> dict[str, Any]:
    return {
        "id": block.id,
        "kind": block.kind,
        "order": block.order,
        "page": block.page,
        "section_path": list(block.section_path),
        "heading_level": block.heading_level,
        "text": block.text,
        "boxes": [[b.x0, b.top, b.x1, b.bottom, b.start, b.end] for b in block.boxes],
        "lines": list(block.lines) if block.lines else None,
    }


def chunk_json(chunk: Chunk) -> dict[str, Any]:
    return {
        "id": chunk.id,
        "order": chunk.order,
        "text": chunk.text,
        "section_path": list(chunk.section_path),
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "spans": [[s.block_id, s.start, s.end] for s in chunk.spans],
    }


def anchor_json(anchor: Anchor | None) -> dict[str, Any] | None:
    if anchor is None:
        return None
    return {
        "document_id": anchor.document_id,
        "block_id": anchor.block_id,
        "start": anchor.start,
        "end": anchor.end,
        "selected_text": anchor.selected_text,
    }


def anchor_from_json(value: dict[str, Any] | None) -> Anchor | None:
    if value is None:
        return None
    return Anchor(
        document_id=value["document_id"],
        block_id=value.get("block_id"),
        start=value.get("start"),
        end=value.get("end"),
        selected_text=value.get("selected_text"),
    )


def thread_json(thread: Thread) -> dict[str, Any]:
    """A thread's head: its turns are added by the caller (a count or the list)."""
    return _fields(thread, THREAD_FIELDS)


def passage_json(unit: ContextUnit) -> dict[str, Any]:
    """One piece of evidence the answerer was given, by where it is, without its text."""
    return {
        **_fields(unit, PASSAGE_FIELDS),
        "section_path": list(unit.section_path),
        "spans": [_fields(span, SPAN_FIELDS) for span in unit.spans],
    }


def retrieval_report_json(report: RetrievalReport) -> dict[str, Any]:
    """``eval retrieval --json``: the metrics, without the triage list of misses."""
    return _fields(report, RETRIEVAL_REPORT_FIELDS)


def quote_json(quote: Quote) -> dict[str, Any]:
    return {
        "number": quote.number,
        "document_id": quote.document_id,
        "block_id": quote.block_id,
        "start": quote.start,
        "end": quote.end,
        "text": quote.text,
        "page": quote.page,
        "section_path": list(quote.section_path),
        "verdict": quote.verdict,
    }


def claim_json(claim: Claim) -> dict[str, Any]:
    return {
        "text": claim.text,
        "quotes": list(claim.quote_numbers),
        "verdict": claim.verdict,
        "reasons": list(claim.reasons),
    }


def answer_json(answer: Answer) -> dict[str, Any]:
    """Answer first, then the quotes that support it, then the explanation."""
    t = answer.timings
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
        "timings": {
            "retrieval_ms": t.retrieval_ms,
            "answer_ms": t.answer_ms,
            "verify_ms": t.verify_ms,
            "total_ms": t.total_ms,
        },
    }


def answer_from_json(value: dict[str, Any]) -> Answer:
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
        timings=Timings(**value["timings"]),
    )


def _quote(value: dict[str, Any]) -> Quote:
    return Quote(
        number=value["number"],
        document_id=value["document_id"],
        block_id=value["block_id"],
        start=value["start"],
        end=value["end"],
        text=value["text"],
        page=value["page"],
        section_path=tuple(value["section_path"]),
        verdict=value["verdict"],
    )
