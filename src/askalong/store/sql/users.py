"""Users and API tokens in the SQL store: ``SqlUsers`` (a ``UserStore``) and its SQL.

A password's argon2id hash and a token's SHA-256 digest are all the store keeps
(``store/credentials.py``). Every check of a password or token reads the user's
``disabled`` flag in the same statement, so disabling takes effect on the next request;
disabling also ends the user's sessions for good, and a password change ends all but the
changer's (``sessions``).

User ids are kept as given and compared without case (``lower`` on both sides; ids
are ASCII): ``alice`` signs in as ``Alice``, and no ``ALICE`` can be added beside ``alice``.
An install that already holds two case-variants keeps both: an exact id finds its own,
and a variant that matches both finds neither (``_user_row``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache

from askalong.errors import InputError
from askalong.store.credentials import hash_password, new_token, password_matches, token_digest
from askalong.store.sql.database import Row, SqlConnection, SqlDatabase
from askalong.store.sql.row_maps import Column, RowMap
from askalong.store.sql.rows import found
from askalong.store.sql.sessions import end_user_sessions
from askalong.values.accounts import ApiToken, User

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
RESERVED_USERS = frozenset({"local"})  # the owner of everything added without an account
TOKENS = RowMap(ApiToken, "api_tokens", columns={"user": Column("user_id")})
USERS = RowMap(User, "users")
_SAME_ID = "lower(id) = lower(CAST(? AS TEXT))"  # the id, whatever its case


def check_name(value: str, what: str) -> str:
    """A user or org id: letters, digits, ``._-``, at most 64, starting with a letter or
    digit (it becomes part of an access token and of URLs)."""
    if not NAME.fullmatch(value):
        raise InputError(
            f"a {what} id is 1-64 letters, digits, '.', '_' or '-', starting with a letter"
            " or digit",
            source=value,
        )
    return value


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class SqlUsers(SqlDatabase):
    """``UserStore`` over the shared connection."""

    def add_user(self, user_id: str, password: str, *, admin: bool | None = None) -> User:
        check_name(user_id, "user")
        if user_id in RESERVED_USERS:
            raise InputError(f"{user_id!r} is reserved for the local owner", source=user_id)
        hashed = hash_password(password)
        with self._lock, self._errors(user_id), self._transaction() as conn:
            _refuse_taken(conn, user_id)
            if admin is None:  # the first account is the one that can administer the rest
                admin = conn.execute("SELECT 1 FROM users LIMIT 1").fetchone() is None
            conn.execute(
                "INSERT INTO users (id, password_hash, created, admin) VALUES (?, ?, ?, ?)",
                (user_id, hashed, now(), int(admin)),
            )
            return _require_user(conn, user_id)

    def list_users(self) -> list[User]:
        with self._lock, self._errors("users"):
            rows = self._conn.execute(f"{USERS.select} ORDER BY id")
            return [USERS.value(row) for row in rows]

    def get_user(self, user_id: str) -> User | None:
        with self._lock, self._errors(user_id):
            return _user(self._conn, user_id)

    def has_users(self) -> bool:
        with self._lock, self._errors("users"):
            return self._conn.execute("SELECT 1 FROM users LIMIT 1").fetchone() is not None

    def set_disabled(self, user_id: str, disabled: bool) -> User:
        with self._lock, self._errors(user_id), self._transaction() as conn:
            user = _require_user(conn, user_id)
            conn.execute("UPDATE users SET disabled = ? WHERE id = ?", (int(disabled), user.id))
            if disabled:  # for good: enabling again revives no session
                end_user_sessions(conn, user.id)
            return _require_user(conn, user.id)

    def set_password(self, user_id: str, password: str, *, keep_session: str | None = None) -> User:
        hashed = hash_password(password)
        with self._lock, self._errors(user_id), self._transaction() as conn:
            user = _require_user(conn, user_id)
            conn.execute("UPDATE users SET password_hash = ? WHERE id = ?", (hashed, user.id))
            end_user_sessions(conn, user.id, keep=keep_session)
            return user

    def check_password(self, user_id: str, password: str) -> User | None:
        with self._lock, self._errors("login"):
            row = _user_row(self._conn, user_id, f"{USERS.selected()}, password_hash")
        # Hashing outside the lock: argon2 takes tens of milliseconds by design. An unknown
        # user costs one hash too, so the time taken does not tell which users exist.
        stored = _dummy_hash() if row is None else row["password_hash"]
        if not password_matches(stored, password) or row is None or row["disabled"]:
            return None
        return USERS.value(row)

    def create_token(self, user_id: str, label: str = "") -> tuple[ApiToken, str]:
        made = new_token()
        with self._lock, self._errors(user_id), self._transaction() as conn:
            user = _require_user(conn, user_id)
            conn.execute(
                "INSERT INTO api_tokens (id, user_id, digest, label, created)"
                " VALUES (?, ?, ?, ?, ?)",
                (made.id, user.id, made.digest, label[:200], now()),
            )
            return _token(conn, made.id), made.secret

    def revoke_token(self, token_id: str) -> ApiToken:
        with self._lock, self._errors(token_id), self._transaction() as conn:
            _token(conn, token_id)
            conn.execute("UPDATE api_tokens SET revoked = 1 WHERE id = ?", (token_id,))
            return _token(conn, token_id)

    def list_tokens(self, user_id: str | None = None) -> list[ApiToken]:
        where, params = ("", ()) if user_id is None else (" WHERE user_id = ?", (user_id,))
        with self._lock, self._errors("tokens"):
            rows = self._conn.execute(f"{TOKENS.select}{where} ORDER BY created, id", params)
            return [TOKENS.value(row) for row in rows]

    def user_of_token(self, secret: str) -> User | None:
        with self._lock, self._errors("token"):
            row = self._conn.execute(
                "SELECT u.id, u.created, u.disabled, u.admin FROM api_tokens t JOIN users u"
                " ON u.id = t.user_id WHERE t.digest = ? AND t.revoked = 0 AND u.disabled = 0",
                (token_digest(secret),),
            ).fetchone()
        return None if row is None else USERS.value(row)


@cache
def _dummy_hash() -> str:
    return hash_password("not anyone's password")


def _user_row(conn: SqlConnection, user_id: str, columns: str = USERS.selected()) -> Row | None:
    """The user ``user_id`` names in any case: the exact id first, else the one id equal
    but for case (two such, left from before ids ignored case: neither)."""
    rows = conn.execute(f"SELECT {columns} FROM users WHERE {_SAME_ID}", (user_id,)).fetchall()
    exact = [row for row in rows if row["id"] == user_id]
    return exact[0] if exact else rows[0] if len(rows) == 1 else None


def _user(conn: SqlConnection, user_id: str) -> User | None:
    row = _user_row(conn, user_id)
    return None if row is None else USERS.value(row)


def _refuse_taken(conn: SqlConnection, user_id: str) -> None:
    taken = conn.execute(f"SELECT id FROM users WHERE {_SAME_ID} LIMIT 1", (user_id,)).fetchone()
    if taken is not None:
        raise InputError(
            f"the user {taken['id']!r} exists already (user ids ignore case)", source=user_id
        )


def user_id_of(conn: SqlConnection, user_id: str) -> str | None:
    """The stored id of the user ``user_id`` names in any case (None: no such user)."""
    user = _user(conn, user_id)
    return None if user is None else user.id


def _require_user(conn: SqlConnection, user_id: str) -> User:
    return found(_user(conn, user_id), "user", user_id)


def _token(conn: SqlConnection, token_id: str) -> ApiToken:
    row = conn.execute(f"{TOKENS.select} WHERE id = ?", (token_id,)).fetchone()
    return TOKENS.value(found(row, "token", token_id))
