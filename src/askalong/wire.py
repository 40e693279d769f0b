"""The stable JSON forms of AskAlong's public values: what `--json` prints, what the HTTP
API returns and what stored threads keep. Fields are added, never renamed or removed
(documented in the README, "JSON output").

Each form is declared once, as a ``TypedDict`` below, next to the one function that builds
it: mypy checks that the function writes exactly the declared keys, and the HTTP response
schemas (``server/schemas.py``, ``/openapi.json``) are the same classes, read by pydantic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

# pydantic reads TypedDicts for the HTTP schemas, and on Python 3.11 only this spelling.
from typing_extensions import TypedDict

from askalong.types import (
    Anchor,
    Answer,
    AnswerStatus,
    Block,
    BlockKind,
    BlockSpan,
    Chunk,
    Claim,
    Collection,
    Document,
    DocumentFormat,
    Hit,
    Intent,
    LineBox,
    Quote,
    RetrievalMode,
    Thread,
    Timings,
    Turn,
    Verdict,
    Visibility,
)

if TYPE_CHECKING:  # annotations only: the wire forms must not pull these modules in
    from askalong.context.units import ContextUnit
    from askalong.retrieve.search import SearchResult

# A PDF line box: x0, top, x1, bottom in PDF points from the page's top-left, then the
# line's start and end as character offsets in the block's text.
Box = tuple[float, float, float, float, int, int]
ChunkSpan = tuple[str, int, int]  # block id, start, end


# -- documents ------------------------------------------------------------------------------


class DocumentJSON(TypedDict):
    """A document's head: ``pages`` is its page count (0 for formats without pages)."""

    id: str
    title: str
    source: str
    format: DocumentFormat
    language: str
    pages: int
    size_bytes: int
    created: str
    owner: str
    visibility: Visibility
    org_tags: list[str]
    ocr_pages: list[int]
    notices: list[str]


class BlockJSON(TypedDict):
    """A block of a document; ``lines`` is its 1-based source line range (text formats)."""

    id: str
    kind: BlockKind
    order: int
    page: int | None
    section_path: list[str]
    heading_level: int
    text: str
    boxes: list[Box]
    lines: tuple[int, int] | None


class ChunkJSON(TypedDict):
    """A retrieval unit: ``text`` is its spans' block text joined by a newline."""

    id: str
    order: int
    text: str
    section_path: list[str]
    page_start: int | None
    page_end: int | None
    spans: list[ChunkSpan]


def document_json(doc: Document) -> DocumentJSON:
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


class CollectionJSON(TypedDict):
    """A named set of documents; ``documents`` and ``chunks`` count the members the
    caller may see."""

    id: str
    name: str
    owner: str
    created: str
    documents: int
    chunks: int


def collection_json(collection: Collection) -> CollectionJSON:
    return {
        "id": collection.id,
        "name": collection.name,
        "owner": collection.owner,
        "created": collection.created,
        "documents": collection.documents,
        "chunks": collection.chunks,
    }


def block_json(block: Block) -> BlockJSON:
    """Boxes keep the parser's coordinates, unrounded (the README documents no rounding)."""
    return {
        "id": block.id,
        "kind": block.kind,
        "order": block.order,
        "page": block.page,
        "section_path": list(block.section_path),
        "heading_level": block.heading_level,
        "text": block.text,
        "boxes": [_box(b) for b in block.boxes],
        "lines": block.lines,
    }


def _box(box: LineBox) -> Box:
    """Coordinates to 0.01 pt: finer than any screen shows, and a third smaller on the wire."""
    return (
        round(box.x0, 2),
        round(box.top, 2),
        round(box.x1, 2),
        round(box.bottom, 2),
        box.start,
        box.end,
    )


def chunk_json(chunk: Chunk) -> ChunkJSON:
    return {
        "id": chunk.id,
        "order": chunk.order,
        "text": chunk.text,
        "section_path": list(chunk.section_path),
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "spans": [(s.block_id, s.start, s.end) for s in chunk.spans],
    }


# -- search ---------------------------------------------------------------------------------


class SpanJSON(TypedDict):
    """Characters ``start:end`` (code points) of a block's text."""

    block_id: str
    start: int
    end: int


class HitJSON(TypedDict):
    """One search hit; a route's score and rank are null when it did not find the chunk."""

    rank: int
    chunk_id: str
    document_id: str
    document_title: str
    score: float
    mode: RetrievalMode
    keyword_score: float | None
    keyword_rank: int | None
    vector_score: float | None
    vector_rank: int | None
    page_start: int | None
    page_end: int | None
    section_path: list[str]
    text: str
    spans: list[SpanJSON]


class SearchJSON(TypedDict):
    """``askalong search --json`` and ``GET /api/search``: the routes that ran, then hits."""

    query: str
    routes: list[str]
    notes: list[str]
    hits: list[HitJSON]


def hit_json(rank: int, hit: Hit, chunk: Chunk, title: str) -> HitJSON:
    return {
        "rank": rank,
        "chunk_id": hit.chunk_id,
        "document_id": hit.document_id,
        "document_title": title,
        "score": hit.score,
        "mode": hit.mode,
        "keyword_score": hit.keyword_score,
        "keyword_rank": hit.keyword_rank,
        "vector_score": hit.vector_score,
        "vector_rank": hit.vector_rank,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "section_path": list(chunk.section_path),
        "text": chunk.text,
        "spans": [span_json(s) for s in chunk.spans],
    }


def search_json(
    result: SearchResult, chunk_of: Callable[[str], Chunk], title_of: Callable[[str], str]
) -> SearchJSON:
    """The result with its hits ranked from 1; each edge looks chunks and titles up its way."""
    hits = [
        hit_json(rank, hit, chunk_of(hit.chunk_id), title_of(hit.document_id))
        for rank, hit in enumerate(result.hits, 1)
    ]
    return {
        "query": result.query,
        "routes": list(result.routes),
        "notes": list(result.notes),
        "hits": hits,
    }


def span_json(span: BlockSpan) -> SpanJSON:
    return {"block_id": span.block_id, "start": span.start, "end": span.end}


# -- answers --------------------------------------------------------------------------------


class AnchorJSON(TypedDict):
    """Where a question was asked: a block and a span of it, with the selected text."""

    document_id: str
    block_id: str | None
    start: int | None
    end: int | None
    selected_text: str | None


class PlacedAnchorJSON(AnchorJSON):
    """An anchor with where its block is (both empty when the block is gone)."""

    page: int | None
    section_path: list[str]


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


class TimingsJSON(TypedDict):
    retrieval_ms: float
    answer_ms: float
    verify_ms: float
    total_ms: float


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


def anchor_json(anchor: Anchor | None) -> AnchorJSON | None:
    if anchor is None:
        return None
    return {
        "document_id": anchor.document_id,
        "block_id": anchor.block_id,
        "start": anchor.start,
        "end": anchor.end,
        "selected_text": anchor.selected_text,
    }


def placed_anchor_json(
    anchor: Anchor | None, page: int | None, section_path: tuple[str, ...]
) -> PlacedAnchorJSON | None:
    """``anchor_json`` plus where the anchor block is (page, section)."""
    base = anchor_json(anchor)
    if base is None:
        return None
    return {**base, "page": page, "section_path": list(section_path)}


def anchor_from_json(value: AnchorJSON | None) -> Anchor | None:
    if value is None:
        return None
    return Anchor(
        document_id=value["document_id"],
        block_id=value.get("block_id"),
        start=value.get("start"),
        end=value.get("end"),
        selected_text=value.get("selected_text"),
    )


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


def claim_json(claim: Claim) -> ClaimJSON:
    return {
        "text": claim.text,
        "quotes": list(claim.quote_numbers),
        "verdict": claim.verdict,
        "reasons": list(claim.reasons),
    }


def timings_json(timings: Timings) -> TimingsJSON:
    return {
        "retrieval_ms": timings.retrieval_ms,
        "answer_ms": timings.answer_ms,
        "verify_ms": timings.verify_ms,
        "total_ms": timings.total_ms,
    }


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
        timings=Timings(**value["timings"]),
    )


def _quote(value: QuoteJSON) -> Quote:
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


# -- threads --------------------------------------------------------------------------------


class _ThreadHead(TypedDict):
    """A thread's head: ``title`` is its first question."""

    id: str
    document_id: str | None
    title: str
    created: str
    updated: str


class ThreadSummaryJSON(_ThreadHead):
    """A thread in a list: how many turns it has and where its last turn was anchored."""

    turns: int
    anchor: PlacedAnchorJSON | None


class TurnJSON(TypedDict):
    """One question of a thread, its anchor and the answer JSON given to it."""

    id: str
    index: int
    question: str
    intent: Intent
    anchor: PlacedAnchorJSON | None
    answer: AnswerJSON
    created: str


class ThreadJSON(_ThreadHead):
    """A thread with its turns in order."""

    turns: list[TurnJSON]


def _thread_head(thread: Thread) -> _ThreadHead:
    return {
        "id": thread.id,
        "document_id": thread.document_id,
        "title": thread.title,
        "created": thread.created,
        "updated": thread.updated,
    }


def thread_summary_json(
    thread: Thread, turns: int, anchor: PlacedAnchorJSON | None
) -> ThreadSummaryJSON:
    return {**_thread_head(thread), "turns": turns, "anchor": anchor}


def thread_json(thread: Thread, turns: list[TurnJSON]) -> ThreadJSON:
    return {**_thread_head(thread), "turns": turns}


def turn_json(turn: Turn, anchor: PlacedAnchorJSON | None) -> TurnJSON:
    """``anchor`` is the turn's anchor placed by the caller, who can look its block up."""
    return {
        "id": turn.id,
        "index": turn.index,
        "question": turn.question,
        "intent": turn.intent,
        "anchor": anchor,
        "answer": answer_json(turn.answer),
        "created": turn.created,
    }
