"""Signed browser sessions of accounts, and the CSRF token that goes with each.

A session cookie reads ``<user>.<issued>.<nonce>.<signature>``: an HMAC-SHA256 over the
rest under a key derived from the install token (``ASKALONG_HOME/api-token``), so a
forged or edited cookie fails the signature, and replacing the install token signs
everyone out. A signed cookie counts only while the store holds its session
(``SessionStore``, checked on every request): signing out ends it on the server, not
only in the browser; disabling a user ends all theirs for good; a password change ends
all but the changer's. The cookie is HttpOnly and SameSite=Lax.

The CSRF token is a second HMAC over the session's nonce: the page reads it from
``GET /api/session`` (or the login reply, or the readable ``askalong_csrf_<port>``
cookie) and sends it as ``X-CSRF-Token`` on every state-changing request; a request made
with the session cookie alone (a cross-site form riding on the cookie) is refused (403).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

SESSION_PREFIX = "askalong_user_"  # + the server's port, as the install cookie
CSRF_PREFIX = "askalong_csrf_"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Session:
    user: str
    nonce: str
    issued: int  # seconds since the epoch


class SessionSigner:
    """Makes and checks session cookies and their CSRF tokens under one key."""

    def __init__(self, install_token: str) -> None:
        self._key = hmac.new(
            install_token.encode(), b"askalong account sessions v1", hashlib.sha256
        ).digest()

    def issue(self, user: str, now: float | None = None) -> str:
        body = f"{user}.{int(now if now is not None else time.time())}.{secrets.token_hex(16)}"
        return f"{body}.{self._sign(body)}"

    def read(self, cookie: str, now: float | None = None) -> Session | None:
        """The session ``cookie`` carries, if its signature holds and it is not expired."""
        body, _, signature = cookie.rpartition(".")
        parts = body.rsplit(".", 2)  # a user id may hold dots; the other two never do
        if (
            len(parts) != 3
            or not parts[1].isdigit()
            or not hmac.compare_digest(signature, self._sign(body))
        ):
            return None
        user, issued, nonce = parts
        age = (now if now is not None else time.time()) - int(issued)
        return Session(user, nonce, int(issued)) if 0 <= age <= SESSION_SECONDS else None

    def csrf(self, session: Session) -> str:
        return self._sign(f"csrf.{session.nonce}")

    def csrf_ok(self, session: Session, given: str) -> bool:
        return hmac.compare_digest(
            given.encode("utf-8", "surrogateescape"), self.csrf(session).encode()
        )

    def _sign(self, text: str) -> str:
        return hmac.new(self._key, text.encode(), hashlib.sha256).hexdigest()
