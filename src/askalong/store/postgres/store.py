"""The server store: PostgreSQL beside a folder of original files.

``PostgresStore`` is every aggregate's class (``store/sql``, the SQL it shares with the
SQLite store) over a pool of connections (``database``), migrated when it opens
(``migrate``). Any number of app servers and workers may open it at once.
"""

from __future__ import annotations

from askalong.files.base import OriginalStore
from askalong.store.postgres.connection import open_pool, pg_errors, redact
from askalong.store.postgres.database import PostgresDatabase
from askalong.store.postgres.migrate import apply_migrations
from askalong.store.sql.aggregates import SqlAggregates


class PostgresStore(SqlAggregates, PostgresDatabase):
    """``Store`` over a PostgreSQL database: each call takes a pooled connection."""

    def __init__(self, url: str, files: OriginalStore) -> None:
        """Connect to ``url`` and migrate its schema (``StoreError`` naming the server
        when it cannot be reached)."""
        pool = open_pool(url)
        try:
            with pg_errors(redact(url)), pool.connection() as conn:
                apply_migrations(conn)
        except BaseException:
            pool.close()
            raise
        self._files = files
        PostgresDatabase.__init__(self, pool)
