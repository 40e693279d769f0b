"""The JSON forms of a document and its parts: its head, its blocks (with their line boxes),
its chunks, and a span of a block's text (what hits and passages point at)."""

from __future__ import annotations

from typing import cast

from typing_extensions import TypedDict

from askalong.types import (
    Block,
    BlockKind,
    BlockSpan,
    Chunk,
    Document,
    DocumentFormat,
    LineBox,
    Visibility,
)
from askalong.values.jobs import Job
from askalong.wire.derived import value_json
from askalong.wire.jobs import JobJSON, job_json
from askalong.wire.titles import shown_title

# A PDF line box: x0, top, x1, bottom in PDF points from the page's top-left, then the
# line's start and end as character offsets in the block's text.
# x0, top, x1, bottom, start, end; then the page, on a line past a page break only.
Box = tuple[float, float, float, float, int, int] | tuple[float, float, float, float, int, int, int]
ChunkSpan = tuple[str, int, int]  # block id, start, end


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
    unread_pages: list[int]  # of ocr_pages, those OCR has not read (its time budget ran out)
    job: JobJSON | None  # its ingestion job, where one was queued and the caller asked


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


class SpanJSON(TypedDict):
    """Characters ``start:end`` (code points) of a block's text."""

    block_id: str
    start: int
    end: int


def document_json(doc: Document, job: Job | None = None) -> DocumentJSON:
    """``job``: the document's ingestion job, when the caller read it (listings do)."""
    return {
        "id": doc.id,
        "title": shown_title(doc.title),
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
        "unread_pages": list(doc.unread_pages),
        "job": None if job is None else job_json(job),
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
    x0, top, x1, bottom = (round(v, 2) for v in (box.x0, box.top, box.x1, box.bottom))
    if box.page is None:
        return (x0, top, x1, bottom, box.start, box.end)
    return (x0, top, x1, bottom, box.start, box.end, box.page)


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


def span_json(span: BlockSpan) -> SpanJSON:
    return cast(SpanJSON, value_json(span))
