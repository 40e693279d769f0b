"""The browser sessions' protocol (``server/sessions``): one of the aggregates ``Store``
joins (``askalong.store.base``). A session's cookie is signed by the server; the store
says whether it still counts, so a session can end before its cookie expires."""

from __future__ import annotations

from typing import Protocol


class SessionStore(Protocol):
    """Live sessions by their cookie's nonce. Disabling a user ends all theirs and a
    password change all but the changer's (``UserStore.set_disabled``/``set_password``)."""

    def open_session(self, user_id: str, nonce: str, issued: int, expired_before: int) -> None:
        """Record a new session; sessions issued before ``expired_before`` are dropped."""
        ...

    def session_live(self, user_id: str, nonce: str) -> bool:
        """Whether the session is open and its user exists and is enabled."""
        ...

    def end_session(self, nonce: str) -> None:
        """Sign one session out (nothing if it is not open)."""
        ...
