"""The contradiction scan's findings in the SQL store: ``SqlConflicts`` (a
``ConflictStore``).

A pair is listed only to someone who may see both of its documents: the permission filter
is part of the query, once per side. A pair is written only while both chunks exist (the
insert selects them), so a scan racing a re-ingestion writes nothing stale; the pairs of
replaced or deleted chunks go by cascade (migration 0010).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import cast

from askalong.store.sql.database import Row, SqlDatabase
from askalong.store.sql.documents import access_filter
from askalong.store.sql.row_maps import to_json
from askalong.store.sql.rows import CHUNKS, spans_from_list
from askalong.types import Access, BlockSpan, Chunk
from askalong.values.conflicts import ConflictPair, ConflictSide, DifferenceKind

_INSERT = (
    "INSERT INTO conflicts (first_chunk, second_chunk, first_document,"
    " second_document, kind, first_side, second_side, cosine, dice, found_at)"
    " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)"
    " AND EXISTS (SELECT 1 FROM chunks WHERE id = ?) ON CONFLICT DO NOTHING"
)
_SCANNED = (
    "INSERT INTO conflict_scans (document_id, chunks, skipped, scanned_at)"
    " SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM documents WHERE id = ?)"
    " ON CONFLICT (document_id) DO UPDATE SET chunks = excluded.chunks,"
    " skipped = excluded.skipped, scanned_at = excluded.scanned_at"
)
_SELECT = "SELECT kind, first_side, second_side, cosine, dice, found_at FROM conflicts c"
# Documents with chunks whose scan is missing, stale (the trigger removed it) or partial.
_UNSCANNED = (
    "SELECT d.id FROM documents d LEFT JOIN conflict_scans s ON s.document_id = d.id"
    " WHERE (s.document_id IS NULL OR s.skipped > 0)"
    " AND EXISTS (SELECT 1 FROM chunks k WHERE k.document_id = d.id)"
    " ORDER BY d.created, d.rowid"
)
_BATCH = 500  # chunk ids per IN (...) list, well under SQLite's variable limit


class SqlConflicts(SqlDatabase):
    """``ConflictStore`` over the shared connection."""

    def record_scan(
        self,
        document_id: str,
        pairs: Sequence[ConflictPair],
        *,
        chunks: int,
        skipped: int,
        scanned_at: str,
    ) -> None:
        with self._lock, self._errors(document_id), self._transaction() as conn:
            conn.executemany(_INSERT, (_pair_row(p) for p in pairs))
            conn.execute(_SCANNED, (document_id, chunks, skipped, scanned_at, document_id))

    def conflict_pairs(
        self, access: Access, document_ids: Sequence[str] | None = None
    ) -> list[ConflictPair]:
        first = access_filter(access, "c.first_document")
        second = access_filter(access, "c.second_document")
        where, params = f"{first.sql} AND {second.sql}", (*first.params, *second.params)
        if document_ids is not None:
            marks = ", ".join("?" for _ in document_ids)
            where += f" AND (c.first_document IN ({marks}) OR c.second_document IN ({marks}))"
            params = (*params, *document_ids, *document_ids)
        with self._lock, self._errors("conflicts"):
            rows = self._conn.execute(
                f"{_SELECT} WHERE {where} ORDER BY c.found_at, c.first_chunk, c.second_chunk",
                params,
            ).fetchall()
        return [_pair(row) for row in rows]

    def unscanned_documents(self) -> list[str]:
        with self._lock, self._errors("conflicts"):
            return [row[0] for row in self._conn.execute(_UNSCANNED)]

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        found: dict[str, Chunk] = {}
        with self._lock, self._errors("chunks"):
            for at in range(0, len(chunk_ids), _BATCH):
                batch = chunk_ids[at : at + _BATCH]
                marks = ", ".join("?" for _ in batch)
                rows = self._conn.execute(f"{CHUNKS.select} WHERE id IN ({marks})", tuple(batch))
                found.update((chunk.id, chunk) for chunk in map(CHUNKS.value, rows))
        return found


def _pair_row(pair: ConflictPair) -> tuple[object, ...]:
    first, second = pair.first, pair.second
    return (
        first.chunk_id,
        second.chunk_id,
        first.document_id,
        second.document_id,
        pair.kind,
        to_json(_side_json(first)),
        to_json(_side_json(second)),
        pair.cosine,
        pair.dice,
        pair.found_at,
        first.chunk_id,
        second.chunk_id,
    )


def _side_json(side: ConflictSide) -> dict[str, object]:
    block = side.block_span
    return {
        "chunk": side.chunk_id,
        "document": side.document_id,
        "page": side.page,
        "range": [side.start, side.end],
        "block": None if block is None else [block.block_id, block.start, block.end],
        "tokens": list(side.tokens),
        "spans": [[s.block_id, s.start, s.end] for s in side.spans],  # as CHUNKS writes
    }


def _side(text: str) -> ConflictSide:
    value = json.loads(text)
    block = value["block"]
    return ConflictSide(
        chunk_id=value["chunk"],
        document_id=value["document"],
        page=value["page"],
        start=int(value["range"][0]),
        end=int(value["range"][1]),
        block_span=None
        if block is None
        else BlockSpan(str(block[0]), int(block[1]), int(block[2])),
        tokens=tuple(value["tokens"]),
        spans=spans_from_list(value["spans"]),
    )


def _pair(row: Row) -> ConflictPair:
    return ConflictPair(
        first=_side(row["first_side"]),
        second=_side(row["second_side"]),
        kind=cast(DifferenceKind, row["kind"]),
        cosine=float(row["cosine"]),
        dice=float(row["dice"]),
        found_at=row["found_at"],
    )
