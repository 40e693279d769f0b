"""The JSON shapes of the API (they are also its OpenAPI schema).

Like the CLI's JSON, these are a contract: add fields, never rename or remove them.
Boxes are compact arrays ``[x0, top, x1, bottom, start, end]`` (PDF points from the page's
top-left; ``start``/``end`` are character offsets of the line within the block text).
Every character offset in the API counts Unicode code points, as Python does.
"""

from __future__ import annotations

from pydantic import BaseModel

from askalong.retrieve.search import SearchResult
from askalong.types import Block, Chunk, Document, Hit

Box = tuple[float, float, float, float, int, int]


class ErrorBody(BaseModel):
    type: str  # the error class, e.g. "TooLarge", "NotFound"
    message: str
    source: str | None = None


class ErrorOut(BaseModel):
    error: ErrorBody


class DocumentOut(BaseModel):
    id: str
    title: str
    source: str
    format: str
    language: str
    pages: int
    size_bytes: int
    created: str
    owner: str
    visibility: str
    org_tags: list[str]
    ocr_pages: list[int]
    notices: list[str]

    @classmethod
    def of(cls, doc: Document) -> DocumentOut:
        return cls(
            id=doc.id,
            title=doc.title,
            source=doc.source,
            format=doc.format,
            language=doc.language,
            pages=doc.page_count,
            size_bytes=doc.size_bytes,
            created=doc.created,
            owner=doc.owner,
            visibility=doc.visibility,
            org_tags=list(doc.org_tags),
            ocr_pages=list(doc.ocr_pages),
            notices=list(doc.notices),
        )


class DocumentList(BaseModel):
    documents: list[DocumentOut]


class UploadOut(BaseModel):
    status: str  # "added" or "exists"
    document: DocumentOut
    blocks: int
    chunks: int


class PageOut(BaseModel):
    number: int  # 1-based
    width: float  # PDF points
    height: float


class BlockOut(BaseModel):
    id: str
    kind: str
    order: int
    page: int | None
    section_path: list[str]
    heading_level: int
    text: str
    boxes: list[Box]
    lines: tuple[int, int] | None

    @classmethod
    def of(cls, block: Block) -> BlockOut:
        return cls(
            id=block.id,
            kind=block.kind,
            order=block.order,
            page=block.page,
            section_path=list(block.section_path),
            heading_level=block.heading_level,
            text=block.text,
            boxes=[_box(b.x0, b.top, b.x1, b.bottom, b.start, b.end) for b in block.boxes],
            lines=block.lines,
        )


def _box(x0: float, top: float, x1: float, bottom: float, start: int, end: int) -> Box:
    return (round(x0, 2), round(top, 2), round(x1, 2), round(bottom, 2), start, end)


class OutlineEntry(BaseModel):
    block_id: str
    level: int
    text: str
    page: int | None


class StructureOut(BaseModel):
    document: DocumentOut
    pages: list[PageOut]
    blocks: list[BlockOut]
    outline: list[OutlineEntry]

    @classmethod
    def of(cls, doc: Document, blocks: tuple[Block, ...]) -> StructureOut:
        pages = [PageOut(number=n, width=w, height=h) for n, (w, h) in enumerate(doc.page_sizes, 1)]
        outline = [
            OutlineEntry(block_id=b.id, level=max(b.heading_level, 1), text=b.text, page=b.page)
            for b in blocks
            if b.kind == "heading"
        ]
        return cls(
            document=DocumentOut.of(doc),
            pages=pages,
            blocks=[BlockOut.of(b) for b in blocks],
            outline=outline,
        )


class SpanOut(BaseModel):
    block_id: str
    start: int
    end: int


class HitOut(BaseModel):
    rank: int
    chunk_id: str
    document_id: str
    document_title: str
    score: float
    mode: str
    keyword_score: float | None
    vector_score: float | None
    page_start: int | None
    page_end: int | None
    section_path: list[str]
    text: str
    spans: list[SpanOut]

    @classmethod
    def of(cls, rank: int, hit: Hit, chunk: Chunk, title: str) -> HitOut:
        return cls(
            rank=rank,
            chunk_id=hit.chunk_id,
            document_id=hit.document_id,
            document_title=title,
            score=hit.score,
            mode=hit.mode,
            keyword_score=hit.keyword_score,
            vector_score=hit.vector_score,
            page_start=chunk.page_start,
            page_end=chunk.page_end,
            section_path=list(chunk.section_path),
            text=chunk.text,
            spans=[SpanOut(block_id=s.block_id, start=s.start, end=s.end) for s in chunk.spans],
        )


class SearchOut(BaseModel):
    query: str
    routes: list[str]
    notes: list[str]
    hits: list[HitOut]

    @classmethod
    def of(cls, result: SearchResult, hits: list[HitOut]) -> SearchOut:
        return cls(
            query=result.query, routes=list(result.routes), notes=list(result.notes), hits=hits
        )


class AnchorIn(BaseModel):
    """Where a question is anchored: a block and a character span of it (code points),
    with the selected text (which may run over several blocks)."""

    block_id: str | None = None
    start: int | None = None
    end: int | None = None
    selected_text: str | None = None


class AskIn(BaseModel):
    document_id: str
    question: str = ""  # may be empty when ``intent`` is given: an intent alone is a question
    intent: str | None = None  # "explain" | "example" | "compare"
    anchor: AnchorIn | None = None  # None on a follow-up keeps the thread's anchor
    thread_id: str | None = None  # None starts a new thread
    stream: bool = True
