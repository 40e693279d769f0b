"""Code symbols in the SQL store: ``SqlSymbols`` (a ``SymbolStore``).

A definition's name is the last part of its block's section path, spelled by each
backend's dialect (``Dialect.block_symbol``) exactly as its index on ``blocks`` is
(SQLite migration 0013, PostgreSQL 0002), so the lookup is an index search; the
permission filter is part of the same query.
"""

from __future__ import annotations

from collections.abc import Iterable

from askalong.store.sql.database import SqlDatabase
from askalong.store.sql.documents import access_filter
from askalong.store.sql.rows import strings
from askalong.types import Access
from askalong.values.symbols import Definition


class SqlSymbols(SqlDatabase):
    """``SymbolStore`` over the shared connection."""

    def definitions(self, names: Iterable[str], access: Access) -> tuple[Definition, ...]:
        wanted = tuple(dict.fromkeys(name for name in names if name))
        if not wanted:
            return ()
        visible = access_filter(access)
        marks = ", ".join("?" * len(wanted))
        with self._lock, self._errors("symbols"):
            rows = self._conn.execute(
                "SELECT b.document_id, b.id, b.section_path FROM blocks b"
                " JOIN documents d ON d.id = b.document_id"
                f" WHERE {self.dialect.block_symbol} IN ({marks}) AND d.format = 'code'"
                f" AND {visible.sql} ORDER BY b.document_id, b.ord",
                (*wanted, *visible.params),
            )
            found = [Definition(row[0], row[1], strings(row[2])) for row in rows]
        # a function split around the definitions nested in it is one definition: its first
        # block (``setdefault`` keeps the first of each, in reading order)
        first: dict[tuple[str, tuple[str, ...]], Definition] = {}
        for definition in found:
            first.setdefault((definition.document_id, definition.qualname), definition)
        return tuple(first.values())

    def only_code(self, access: Access) -> bool:
        visible = access_filter(access)
        with self._lock, self._errors("documents"):
            row = self._conn.execute(
                "SELECT count(*), coalesce(sum(CASE WHEN d.format = 'code' THEN 0 ELSE 1 END), 0)"
                f" FROM documents d WHERE {visible.sql}",
                visible.params,
            ).fetchone()
        return int(row[0]) > 0 and int(row[1]) == 0
