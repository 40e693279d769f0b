"""The embedded store: one SQLite file (WAL) beside a folder of original files.

``SQLiteStore`` is every aggregate's class (``store/sql``: the SQL it shares with the
PostgreSQL store) over one connection (``connection``): the documents, the threads, the
collections, the resumable uploads, the accounts with their browser sessions, the
per-user request counts and failed sign-ins, the ingestion jobs, the contradiction scan's
pairs and the feedback on answers. An aggregate added later is one more class in
``store/sql`` and one more base of ``SqlAggregates``. See ``connection`` for the concurrency model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from askalong.files.base import OriginalStore
from askalong.store.sql.aggregates import SqlAggregates
from askalong.store.sqlite.connection import SQLiteDatabase


class SQLiteStore(SqlAggregates, SQLiteDatabase):
    """``Store`` over one SQLite file: every aggregate's methods share its connection
    and its lock."""

    def __init__(
        self, path: Path, files: OriginalStore, *, trace: Callable[[str], None] | None = None
    ) -> None:
        """Open (creating if needed) and migrate; ``trace`` receives every SQL statement run."""
        self._files = files
        SQLiteDatabase.__init__(self, path, trace=trace)
