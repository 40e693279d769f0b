"""Per-user request counts in the SQLite store: ``SQLiteLimits`` (a ``LimitStore``).

One row per caller holds the current one-minute window's start and its count. A request
is counted by one upsert that starts a new window when the given start differs from the
stored one, so the count needs no read-modify-write and two processes over the same file
count together (each statement runs under SQLite's write lock).
"""

from __future__ import annotations

from askalong.store.sqlite.connection import SQLiteDatabase, store_errors

_COUNT = (
    "INSERT INTO request_windows (user_id, window_start, requests) VALUES (?, ?, 1)"
    " ON CONFLICT (user_id) DO UPDATE SET"
    " requests = CASE WHEN window_start = excluded.window_start THEN requests + 1 ELSE 1 END,"
    " window_start = excluded.window_start"
    " RETURNING requests"
)


class SQLiteLimits(SQLiteDatabase):
    """``LimitStore`` over the shared connection."""

    def count_request(self, user_id: str, window_start: int) -> int:
        with self._lock, store_errors(user_id):
            # A count lost to a power cut costs nothing, so this commit skips the fsync
            # that makes every other one durable (WAL stays consistent either way); the
            # setting is the connection's, put back before the lock is let go.
            durable = self._conn.execute("PRAGMA synchronous").fetchone()[0]
            self._conn.execute("PRAGMA synchronous = NORMAL")
            try:
                with self._transaction() as conn:
                    row = conn.execute(_COUNT, (user_id, window_start)).fetchone()
            finally:
                self._conn.execute(f"PRAGMA synchronous = {int(durable)}")
            return int(row[0])
