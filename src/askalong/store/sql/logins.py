"""Failed sign-in tries in the SQL store: ``SqlLogins`` (a ``LoginStore``).

One row per key: how many failures, and when the last was. A try is read and counted in
one exclusive transaction, so two processes (or threads) never both see a key
below its limit and both spend a password hash. Rows quiet longer than the back-off's
``forget`` are deleted as tries come in, so random user names do not pile up.
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.backoff import Backoff, LoginTry
from askalong.store.sql.database import SqlDatabase

_COUNT = (
    "INSERT INTO login_failures (key, failures, last_failure) VALUES (?, 1, ?)"
    " ON CONFLICT (key) DO UPDATE SET failures = login_failures.failures + 1,"
    " last_failure = excluded.last_failure RETURNING failures"
)


class SqlLogins(SqlDatabase):
    """``LoginStore`` over the shared connection."""

    def take_login_try(self, keys: Sequence[str], now: float, backoff: Backoff) -> LoginTry:
        with self._lock, self._errors("login"), self._transaction() as conn:
            conn.execute(
                "DELETE FROM login_failures WHERE last_failure <= ?", (now - backoff.forget,)
            )
            marks = ",".join("?" * len(keys))
            rows = conn.execute(
                f"SELECT failures, last_failure FROM login_failures WHERE key IN ({marks})",
                tuple(keys),
            ).fetchall()
            wait = max((backoff.wait(r[0], r[1], now) for r in rows), default=0.0)
            if wait > 0:
                return LoginTry(wait, max(r[0] for r in rows))
            counts = [conn.execute(_COUNT, (key, now)).fetchone()[0] for key in keys]
            return LoginTry(0.0, max(counts, default=0))

    def login_succeeded(self, reset: str, undo: Sequence[str]) -> None:
        with self._lock, self._errors("login"), self._transaction() as conn:
            conn.execute("DELETE FROM login_failures WHERE key = ?", (reset,))
            for key in undo:
                conn.execute(
                    "UPDATE login_failures SET failures = CASE WHEN failures > 0 THEN failures - 1"
                    " ELSE 0 END WHERE key = ?",
                    (key,),
                )
