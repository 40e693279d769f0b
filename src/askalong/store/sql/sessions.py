"""Browser sessions in the SQL store: ``SqlSessions`` (a ``SessionStore``).

A session is stored by the SHA-256 of its nonce, so the file alone does not hold what a
cookie carries (the cookie also needs the server's signature). ``end_user_sessions`` is
the statement the users' writes run inside their own transactions.
"""

from __future__ import annotations

from askalong.store.credentials import token_digest
from askalong.store.sql.database import SqlConnection, SqlDatabase


class SqlSessions(SqlDatabase):
    """``SessionStore`` over the shared connection."""

    def open_session(self, user_id: str, nonce: str, issued: int, expired_before: int) -> None:
        with self._lock, self._errors(user_id), self._transaction(exclusive=False) as conn:
            conn.execute("DELETE FROM sessions WHERE issued < ?", (expired_before,))
            conn.execute(
                "INSERT INTO sessions (nonce_sha256, user_id, issued) VALUES (?, ?, ?)",
                (token_digest(nonce), user_id, issued),
            )

    def session_live(self, user_id: str, nonce: str) -> bool:
        with self._lock, self._errors("session"):
            row = self._conn.execute(
                "SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id"
                " WHERE s.nonce_sha256 = ? AND s.user_id = ? AND u.disabled = 0",
                (token_digest(nonce), user_id),
            ).fetchone()
        return row is not None

    def end_session(self, nonce: str) -> None:
        with self._lock, self._errors("session"), self._transaction(exclusive=False) as conn:
            conn.execute("DELETE FROM sessions WHERE nonce_sha256 = ?", (token_digest(nonce),))


def end_user_sessions(conn: SqlConnection, user_id: str, keep: str | None = None) -> None:
    """Delete ``user_id``'s sessions but ``keep`` (a nonce), inside the caller's transaction."""
    if keep is None:
        conn.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))
    else:
        conn.execute(
            "DELETE FROM sessions WHERE user_id = ? AND nonce_sha256 != ?",
            (user_id, token_digest(keep)),
        )
