"""Per-user limits on the HTTP server: API requests in a minute and questions at once.
Over a limit the request is answered 429 with ``Retry-After`` (seconds) and
``{"error": {type, message, source}, "retry_after": N}``, before any route runs.

- *Requests in a minute* are counted in the store (``LimitStore.count_request``), in
  fixed one-minute windows: every server process over one store counts together and a
  restart hands out no fresh minute. A fixed window lets a burst of up to twice the limit
  straddle a boundary; a sliding one would need a row per request or two counts, and the
  limit is a guard against runaway scripts, not a meter.
- *Questions at once* (every question route, ``QUESTION_ROUTES``: ``POST /api/ask`` and
  ``POST /api/chat`` share one count, each held until its answer, streamed or not, has gone
  out or its client left) are counted in this process: the slot belongs to a live
  connection, so a count kept in the store would outlive a killed server and need leases
  to recover; with several app servers it moves to a shared counter (Redis, issue 14).
- *Uploads in flight* keep the resumable uploads' own limit (``ASKALONG_UPLOAD_PENDING``,
  ``resumable/receiver.py``), answered the same way.

Only ``/api/`` requests count (the reader's pages and scripts are not work), and only
those the gate let through with a caller: the login route is nobody's yet. Limits are per
caller (an account's id, or ``local`` for the install's owner, who has its own, generous
pair): one user at a limit does not slow down another.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from askalong.errors import TooMany
from askalong.server.deps import served_store
from askalong.server.errors import too_many_response
from askalong.server.identity import ACCESS_KEY
from askalong.settings import Settings
from askalong.types import Access

WINDOW_SECONDS = 60
QUESTION_RETRY_SECONDS = 5  # a question's answer takes seconds: try again soon
# Every route that answers a question: one count of questions at once covers them all.
QUESTION_ROUTES = frozenset({("POST", "/api/ask"), ("POST", "/api/chat")})


@dataclass(frozen=True)
class Limit:
    """One caller's limits; 0 is no limit. ``settings`` prefixes the names that set them."""

    requests_per_minute: int
    questions: int
    settings: str = "ASKALONG_"


@dataclass(frozen=True)
class UserLimits:
    account: Limit
    owner: Limit  # the install token's holder (the zero-config user)

    @classmethod
    def of(cls, settings: Settings) -> UserLimits:
        return cls(
            Limit(settings.requests_per_minute, settings.concurrent_questions),
            Limit(
                settings.owner_requests_per_minute,
                settings.owner_concurrent_questions,
                "ASKALONG_OWNER_",
            ),
        )

    def of_caller(self, access: Access) -> Limit:
        return self.owner if access.everything else self.account


class QuestionSlots:
    """The questions each caller has running in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}

    def take(self, user: str, limit: int) -> bool:
        with self._lock:
            held = self._held.get(user, 0)
            if limit and held >= limit:
                return False
            self._held[user] = held + 1
            return True

    def give_back(self, user: str) -> None:
        with self._lock:
            left = self._held.get(user, 1) - 1
            if left > 0:
                self._held[user] = left
            else:
                self._held.pop(user, None)


class RequestLimits:
    """Plain ASGI middleware inside the gate (it reads the caller the gate resolved), so
    a refused request never reaches the body guard or a route."""

    def __init__(
        self, app: ASGIApp, *, limits: UserLimits, clock: Callable[[], float] = time.time
    ) -> None:
        self.app = app
        self.limits = limits
        self.clock = clock
        self.slots = QuestionSlots()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        access = scope.get(ACCESS_KEY)
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/") or access is None:
            await self.app(scope, receive, send)
            return
        limit = self.limits.of_caller(access)
        refused = await self._over_minute(scope, access.user, limit)
        question = (scope["method"], path) in QUESTION_ROUTES
        if refused is None and question and not self.slots.take(access.user, limit.questions):
            refused = TooMany(
                f"{limit.questions} questions are already running for you; wait for one to"
                f" finish ({limit.settings}CONCURRENT_QUESTIONS)",
                source=access.user,
                retry_after=QUESTION_RETRY_SECONDS,
            )
        if refused is not None:
            await too_many_response(refused)(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            if question:
                self.slots.give_back(access.user)

    async def _over_minute(self, scope: Scope, user: str, limit: Limit) -> TooMany | None:
        store = served_store(scope)
        allowed = limit.requests_per_minute
        if not allowed or store is None:
            return None
        now = self.clock()
        window = int(now // WINDOW_SECONDS) * WINDOW_SECONDS
        count = await run_in_threadpool(store.count_request, user, window)
        if count <= allowed:
            return None
        return TooMany(
            f"more than {allowed} requests in a minute; slow down"
            f" ({limit.settings}REQUESTS_PER_MINUTE)",
            source=user,
            retry_after=max(1, math.ceil(window + WINDOW_SECONDS - now)),
        )
