"""Rows of the SQL store <-> frozen dataclasses: documents, chunks, threads and turns by
``RowMap``; blocks by small, explicit functions (a line range is two columns, and reading
their boxes is the hot loop of reading a long PDF).

Tuples are stored as compact JSON text; boxes as ``[[x0, top, x1, bottom, start, end]]``
(a line past a page break adds its page: ``[..., end, page]``) and chunk spans as
``[[block_id, start, end]]``.
"""

from __future__ import annotations

import functools
import json
from typing import TypeVar

from askalong.errors import NotFound
from askalong.store.sql.database import Row
from askalong.store.sql.row_maps import Column, RowMap, to_json
from askalong.types import Block, BlockSpan, Chunk, Document, LineBox
from askalong.values.threads import Thread, Turn

_Found = TypeVar("_Found")


def found(value: _Found | None, what: str, key: str) -> _Found:
    """``value`` read for ``key``, or NotFound naming ``what`` was looked for."""
    if value is None:
        raise NotFound(f"no such {what}", source=key)
    return value


@functools.lru_cache(maxsize=1024)
def strings(text: str) -> tuple[str, ...]:
    """Decode a JSON list of strings; cached because neighbouring blocks and chunks
    repeat the same section path thousands of times."""
    return tuple(json.loads(text))


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


def _page_sizes(text: str) -> tuple[tuple[float, float], ...]:
    return tuple((float(page[0]), float(page[1])) for page in json.loads(text))


def _turns_of(text: str) -> tuple[int, ...]:
    return _page_turns(json.loads(text))


# The page sizes and turns share one column (``_page_geometry``); the org tags are a table
# of their own, which the dialect's ``select_document`` gathers as ``org_tags``.
DOCUMENTS = RowMap(
    Document,
    "documents",
    columns={
        "org_tags": Column(read=strings),
        "page_sizes": Column(read=_page_sizes),
        "page_turns": Column("page_sizes", read=_turns_of),
    },
    read_only=frozenset({"org_tags", "page_sizes", "page_turns"}),
    extra={"page_sizes": lambda doc: to_json(_page_geometry(doc))},
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


def _spans_text(spans: tuple[BlockSpan, ...]) -> str:
    return to_json([[s.block_id, s.start, s.end] for s in spans])


def spans_from_json(text: str) -> tuple[BlockSpan, ...]:
    return spans_from_list(json.loads(text))


def spans_from_list(value: list[list[object]]) -> tuple[BlockSpan, ...]:
    """Spans from their decoded JSON form, ``[[block_id, start, end]]``."""
    return tuple(BlockSpan(str(b), int(str(s)), int(str(e))) for b, s, e in value)


CHUNKS = RowMap(
    Chunk,
    "chunks",
    columns={
        "order": Column("ord"),
        "spans": Column(write=_spans_text, read=spans_from_json),
        "section_path": Column(read=strings),  # cached: neighbours repeat it
    },
)
THREADS = RowMap(Thread, "threads", read_only=frozenset({"turn_count"}))
SELECT_THREAD = (
    f"SELECT {THREADS.selected('t')},"
    " (SELECT COUNT(*) FROM turns u WHERE u.thread_id = t.id) AS turn_count FROM threads t"
)
TURNS = RowMap(Turn, "turns", columns={"index": Column("ord")})
