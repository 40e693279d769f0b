"""The sign-in failures' protocol (``server/login_guard``): one of the aggregates
``Store`` joins (``askalong.store.base``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from askalong.backoff import Backoff, LoginTry


class LoginStore(Protocol):
    """Failed password tries per key (an account, a client address), kept in the store so
    every server process over one store throttles together and a restart forgets nothing."""

    def take_login_try(self, keys: Sequence[str], now: float, backoff: Backoff) -> LoginTry:
        """In one transaction: when any key must still wait (``backoff``), that wait and
        nothing counted; else the try counted as a failure of every key *before* the
        password is checked, so tries sent at once cannot outrun the back-off."""
        ...

    def login_succeeded(self, reset: str, undo: Sequence[str]) -> None:
        """A try succeeded: ``reset`` (the account) starts again from zero; each of
        ``undo`` (the address) only loses the one count this try added, so a success on
        one account does not wipe the failures its address made against others."""
        ...
