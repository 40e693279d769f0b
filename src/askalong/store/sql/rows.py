"""Rows of the SQL store <-> frozen dataclasses: a few small, explicit functions.

Tuples are stored as compact JSON text; boxes as ``[[x0, top, x1, bottom, start, end]]``
(a line past a page break adds its page: ``[..., end, page]``) and chunk spans as
``[[block_id, start, end]]``.
"""

from __future__ import annotations

import functools
import json
from typing import TypeVar

from askalong import wire
from askalong.errors import NotFound
from askalong.store.sql.database import Row
from askalong.types import Block, BlockSpan, Chunk, Document, LineBox
from askalong.values.threads import Thread, Turn

_Found = TypeVar("_Found")


def found(value: _Found | None, what: str, key: str) -> _Found:
    """``value`` read for ``key``, or NotFound naming ``what`` was looked for."""
    if value is None:
        raise NotFound(f"no such {what}", source=key)
    return value


def to_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=1024)
def strings(text: str) -> tuple[str, ...]:
    """Decode a JSON list of strings; cached because neighbouring blocks and chunks
    repeat the same section path thousands of times."""
    return tuple(json.loads(text))


def document_row(doc: Document) -> tuple[object, ...]:
    return (
        doc.id,
        doc.content_hash,
        doc.title,
        doc.source,
        doc.format,
        doc.language,
        doc.page_count,
        doc.size_bytes,
        doc.created,
        doc.owner,
        doc.visibility,
        to_json(_page_geometry(doc)),
        to_json(doc.ocr_pages),
        to_json(doc.notices),
        to_json(doc.unread_pages),
    )


def _page_geometry(doc: Document) -> list[list[float]]:
    """Each page's [width, height], and its text's turn as a third number on a turned page:
    the turn rides in the page sizes column (rows from before it have two numbers)."""
    turns = doc.page_turns + (0,) * (len(doc.page_sizes) - len(doc.page_turns))
    return [
        [w, h, turn] if turn else [w, h] for (w, h), turn in zip(doc.page_sizes, turns, strict=True)
    ]


def _page_turns(pages: list[list[float]]) -> tuple[int, ...]:
    turns = tuple(int(page[2]) if len(page) > 2 else 0 for page in pages)
    return turns if any(turns) else ()


def document_from_row(row: Row) -> Document:
    pages = json.loads(row["page_sizes"])
    return Document(
        id=row["id"],
        content_hash=row["content_hash"],
        title=row["title"],
        source=row["source"],
        format=row["format"],
        language=row["language"],
        page_count=row["page_count"],
        size_bytes=row["size_bytes"],
        created=row["created"],
        owner=row["owner"],
        visibility=row["visibility"],
        org_tags=strings(row["org_tags"]),
        page_sizes=tuple((float(page[0]), float(page[1])) for page in pages),
        ocr_pages=tuple(int(p) for p in json.loads(row["ocr_pages"])),
        notices=strings(row["notices"]),
        page_turns=_page_turns(pages),
        unread_pages=tuple(int(p) for p in json.loads(row["unread_pages"])),
    )


def block_row(doc_id: str, block: Block) -> tuple[object, ...]:
    start, end = block.lines if block.lines is not None else (None, None)
    boxes = [_box_row(b) for b in block.boxes]
    return (
        doc_id,
        block.id,
        block.order,
        block.kind,
        block.text,
        block.page,
        to_json(block.section_path),
        block.heading_level,
        to_json(boxes),
        start,
        end,
    )


INSERT_BLOCK = (
    "INSERT INTO blocks (document_id, id, ord, kind, text, page, section_path, heading_level,"
    " boxes, line_start, line_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
SELECT_BLOCK = (
    "SELECT id, ord, kind, text, page, section_path, heading_level, boxes, line_start,"
    " line_end FROM blocks"
)


def block_from_row(row: Row) -> Block:
    start, end = row["line_start"], row["line_end"]
    return Block(
        id=row["id"],
        kind=row["kind"],
        text=row["text"],
        order=row["ord"],
        section_path=strings(row["section_path"]),
        heading_level=row["heading_level"],
        page=row["page"],
        boxes=boxes_from_json(row["boxes"]),
        lines=None if start is None else (start, end),
    )


def _box_row(box: LineBox) -> list[float | int]:
    """A seventh number, the page, only on lines past a page break (``LineBox.page``)."""
    row: list[float | int] = [float(box.x0), float(box.top), float(box.x1), float(box.bottom)]
    row += [int(box.start), int(box.end)]
    return row if box.page is None else [*row, int(box.page)]


def boxes_from_json(text: str) -> tuple[LineBox, ...]:
    # Written with floats and ints in place (see block_row), so they load as the right
    # types with no per-number conversion: this is the hot loop of reading a long PDF.
    return tuple(LineBox(*box) for box in json.loads(text))


def chunk_row(chunk: Chunk) -> tuple[object, ...]:
    spans = [[s.block_id, s.start, s.end] for s in chunk.spans]
    return (
        chunk.id,
        chunk.document_id,
        chunk.order,
        chunk.text,
        to_json(spans),
        to_json(chunk.section_path),
        chunk.page_start,
        chunk.page_end,
        chunk.description,
    )


INSERT_CHUNK = (
    "INSERT INTO chunks (id, document_id, ord, text, spans, section_path, page_start, page_end,"
    " description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
CHUNK_COLUMNS = (
    "id",
    "document_id",
    "ord",
    "text",
    "spans",
    "section_path",
    "page_start",
    "page_end",
    "description",
)
SELECT_CHUNK = f"SELECT {', '.join(CHUNK_COLUMNS)} FROM chunks"


def chunk_from_row(row: Row) -> Chunk:
    return Chunk(
        id=row["id"],
        document_id=row["document_id"],
        order=row["ord"],
        spans=spans_from_json(row["spans"]),
        text=row["text"],
        section_path=strings(row["section_path"]),
        page_start=row["page_start"],
        page_end=row["page_end"],
        description=row["description"],
    )


def spans_from_json(text: str) -> tuple[BlockSpan, ...]:
    return spans_from_list(json.loads(text))


def spans_from_list(value: list[list[object]]) -> tuple[BlockSpan, ...]:
    """Spans from their decoded JSON form, ``[[block_id, start, end]]``."""
    return tuple(BlockSpan(str(b), int(str(s)), int(str(e))) for b, s, e in value)


SELECT_THREAD = (
    "SELECT t.id, t.owner, t.title, t.document_id, t.created, t.updated,"
    " (SELECT COUNT(*) FROM turns u WHERE u.thread_id = t.id) AS turn_count FROM threads t"
)


def thread_from_row(row: Row) -> Thread:
    return Thread(
        id=row["id"],
        owner=row["owner"],
        title=row["title"],
        document_id=row["document_id"],
        created=row["created"],
        updated=row["updated"],
        turn_count=row["turn_count"],
    )


def turn_row(turn: Turn) -> tuple[object, ...]:
    anchor = wire.anchor_json(turn.anchor)
    return (
        turn.id,
        turn.thread_id,
        turn.index,
        turn.question,
        turn.intent,
        None if anchor is None else to_json(anchor),
        to_json(wire.answer_json(turn.answer)),
        turn.created,
    )


def turn_from_row(row: Row) -> Turn:
    anchor = row["anchor"]
    return Turn(
        id=row["id"],
        thread_id=row["thread_id"],
        index=row["ord"],
        question=row["question"],
        intent=row["intent"],
        anchor=wire.anchor_from_json(json.loads(anchor)) if anchor else None,
        answer=wire.answer_from_json(json.loads(row["answer"])),
        created=row["created"],
    )
