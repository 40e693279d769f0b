"""A page read after its document was added (a scanned page the OCR budget left unread):
its blocks and chunks put in reading order among the document's, inside the caller's
transaction, and the page no longer unread."""

from __future__ import annotations

import json
from dataclasses import replace

from askalong.errors import NotFound
from askalong.store.sql.database import SqlConnection
from askalong.store.sql.row_maps import to_json
from askalong.store.sql.rows import CHUNKS, INSERT_BLOCK, block_row
from askalong.types import Block, Chunk


def insert_page(
    conn: SqlConnection,
    doc_id: str,
    page: int,
    blocks: tuple[Block, ...],
    chunks: tuple[Chunk, ...],
) -> bool:
    """Store ``page``'s blocks and chunks if it is still unread (see ``DocumentStore.add_page``)."""
    row = conn.execute("SELECT unread_pages FROM documents WHERE id = ?", (doc_id,)).fetchone()
    if row is None:
        raise NotFound("no such document", source=doc_id)
    unread = [int(p) for p in json.loads(row["unread_pages"])]
    if page not in unread:
        return False
    at = _make_room(conn, "blocks", "page", doc_id, page, len(blocks))
    placed = (replace(b, order=at + i) for i, b in enumerate(blocks))
    conn.executemany(INSERT_BLOCK, (block_row(doc_id, b) for b in placed))
    at = _make_room(conn, "chunks", "page_start", doc_id, page, len(chunks))
    conn.executemany(
        CHUNKS.insert, (CHUNKS.row(replace(c, order=at + i)) for i, c in enumerate(chunks))
    )
    left = [p for p in unread if p != page]
    conn.execute("UPDATE documents SET unread_pages = ? WHERE id = ?", (to_json(left), doc_id))
    return True


def _make_room(
    conn: SqlConnection, table: str, page_column: str, doc_id: str, page: int, count: int
) -> int:
    """The order the page's first row takes: that of the first row of a later page, which
    moves on by ``count`` with all after it (or one past the last row)."""
    later = conn.execute(
        f"SELECT MIN(ord) FROM {table} WHERE document_id = ? AND {page_column} > ?",
        (doc_id, page),
    ).fetchone()[0]
    if later is None:
        end = conn.execute(
            f"SELECT COALESCE(MAX(ord) + 1, 0) FROM {table} WHERE document_id = ?", (doc_id,)
        ).fetchone()[0]
        return int(end)
    conn.execute(
        f"UPDATE {table} SET ord = ord + ? WHERE document_id = ? AND ord >= ?",
        (count, doc_id, later),
    )
    return int(later)
