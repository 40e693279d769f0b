"""Per-user request counts in the SQL store: ``SqlLimits`` (a ``LimitStore``).

One row per caller holds the current one-minute window's start and its count. A request
is counted by one upsert that starts a new window when the given start differs from the
stored one, so the count needs no read-modify-write and several processes over the same
database count together (the upsert is atomic on either backend).
"""

from __future__ import annotations

from askalong.store.sql.database import SqlDatabase

_COUNT = (
    "INSERT INTO request_windows (user_id, window_start, requests) VALUES (?, ?, 1)"
    " ON CONFLICT (user_id) DO UPDATE SET"
    " requests = CASE WHEN request_windows.window_start = excluded.window_start"
    " THEN request_windows.requests + 1 ELSE 1 END,"
    " window_start = excluded.window_start"
    " RETURNING requests"
)


class SqlLimits(SqlDatabase):
    """``LimitStore`` over the shared connection."""

    def count_request(self, user_id: str, window_start: int) -> int:
        # A count lost to a power cut costs nothing: the write need not be durable.
        with (
            self._lock,
            self._errors(user_id),
            self._transaction(exclusive=False, durable=False) as conn,
        ):
            row = conn.execute(_COUNT, (user_id, window_start)).fetchone()
        return int(row[0])
