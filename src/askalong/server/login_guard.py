"""Password tries over HTTP, throttled per account and per client address (issue 25,
OWASP ASVS V2.2.1): ``POST /api/login`` and the password change both go through
``LoginGuard.checked``.

Each try is counted in the store *before* its password is hashed (``LoginStore``), under
two keys: the account (its id in lower case, whether or not it exists, so the answer
tells nothing about which ids do) and the client's address (an IPv6 one by its /64, which
one machine usually holds whole). After ``Backoff.free`` failures of either key a try
waits, doubling with each failure (``askalong/backoff.py``): it is answered 429 with
``Retry-After`` and costs no argon2 hash, so an anonymous client cannot keep the CPU busy.
A success clears its account's count and takes back its own count from the address. The
address is the socket's peer: behind a reverse proxy every client shares the proxy's.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.requests import Request

from askalong.backoff import Backoff
from askalong.errors import TooMany, Unauthorized
from askalong.store.base import Store
from askalong.values.accounts import User

log = logging.getLogger("askalong.server")
WRONG = "wrong user or password"
IPV6_BLOCK = 64  # one machine's share of an IPv6 network


@dataclass(frozen=True)
class LoginGuard:
    backoff: Backoff = field(default_factory=Backoff)
    clock: Callable[[], float] = time.time

    def checked(self, store: Store, user_id: str, password: str, address: str) -> User:
        """The user whose password this is; ``TooMany`` while a key must wait,
        ``Unauthorized`` (never why) otherwise. Runs in the thread pool."""
        keys = (f"user:{user_id.lower()}", f"addr:{address}")
        now = self.clock()
        tried = store.take_login_try(keys, now, self.backoff)
        if tried.wait > 0:
            seconds = math.ceil(tried.wait)
            raise TooMany(
                f"too many failed sign-ins; try again in {seconds} s",
                source="login",
                retry_after=seconds,
            )
        user = store.check_password(user_id, password)
        if user is None:
            self._note_lockout(user_id, address, tried.failures, now)
            raise Unauthorized(WRONG, source="login")
        store.login_succeeded(keys[0], keys[1:])
        return user

    def _note_lockout(self, user_id: str, address: str, failures: int, now: float) -> None:
        wait = self.backoff.wait(failures, now, now)
        if wait > 0:
            log.warning(
                "sign-in locked: %d failed tries for user %r or from %s; next try in %d s",
                failures,
                user_id,
                address,
                math.ceil(wait),
            )


def client_address(request: Request) -> str:
    """The peer's address as a throttling key: an IPv6 one by its /64 block."""
    host = request.client.host if request.client else "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/{IPV6_BLOCK}", strict=False))
    return str(ip)
