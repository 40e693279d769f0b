"""What a request may cost the server before any route runs: its body's size and how slowly
it may arrive, and (for ``listen.py``) how slowly its headers may.

Every route has a body limit: the upload route the file limit plus multipart room, a
resumable upload's piece (``PATCH /api/uploads/<id>``) the piece limit, every
other route ``JSON_BODY_BYTES`` (the largest valid JSON request, a 20,000-character
selection escaped as ``\\uXXXX`` pairs, is under 0.5 MB). A declared ``Content-Length``
over the limit is refused before a byte is read; the bytes are counted as they arrive too,
so a chunked body or one longer than it claims is cut off at the limit (413). A body must
also keep arriving: after ``body_grace`` seconds of waiting it has to average
``body_min_rate`` bytes a second (Kestrel's minimum-data-rate rule), or the request ends
with 408 and the connection closes. Only time spent waiting on the client counts.

Plain ASGI, like the gate: streaming responses pass untouched.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from askalong.server.errors import error_response

JSON_BODY_BYTES = 1024 * 1024
UPLOAD_ROUTE = ("POST", "/api/documents")
PIECE_ROUTES = ("PATCH", "/api/uploads/")  # a prefix: the upload's id follows
MB = 1024 * 1024


@dataclass(frozen=True)
class EdgeTimeouts:
    """Seconds a client may take; the ``serve`` defaults suit a slow link to a laptop."""

    header: float = 10.0  # the request line and headers, from connect or the last response
    keep_alive: int = 5  # an idle connection between requests
    body_grace: float = 10.0  # waiting for the body before the minimum rate applies
    body_min_rate: float = 16 * 1024  # bytes a second, on average, after the grace


SERVE_TIMEOUTS = EdgeTimeouts()


@dataclass(frozen=True)
class BodyRule:
    limit: int  # bytes, as the refusal states it
    setting: str = ""  # the setting that raises it, named in the refusal
    overhead: int = 0  # bytes allowed beyond ``limit`` (multipart boundaries and headers)

    @property
    def allowed(self) -> int:
        return self.limit + self.overhead

    def refusal(self, size: int | None = None) -> Response:
        sent = f"{size / MB:.1f} MB is" if size is not None else "the request body is"
        hint = f" ({self.setting})" if self.setting else ""
        message = f"{sent} over the {self.limit / MB:.1f} MB limit of this route{hint}"
        return error_response(413, "TooLarge", message, "request body")


@dataclass(frozen=True)
class BodyLimits:
    default: BodyRule = BodyRule(JSON_BODY_BYTES)
    routes: dict[tuple[str, str], BodyRule] = field(default_factory=dict)
    prefixes: dict[tuple[str, str], BodyRule] = field(default_factory=dict)

    def rule(self, scope: Scope) -> BodyRule:
        method, path = scope["method"], scope["path"]
        for (prefix_method, prefix), rule in self.prefixes.items():
            if method == prefix_method and path.startswith(prefix):
                return rule
        return self.routes.get((method, path.rstrip("/")), self.default)


class _Refused(Exception):
    """Raised into the app from ``receive`` to stop it reading a body it may not have."""


class _GuardedBody:
    """``receive`` with the size count and the data-rate clock (module docstring)."""

    def __init__(self, receive: Receive, rule: BodyRule, timeouts: EdgeTimeouts) -> None:
        self._receive, self._rule, self._timeouts = receive, rule, timeouts
        self.received = 0
        self.waited = 0.0
        self.refusal: Response | None = None

    async def receive(self) -> Message:
        if self.refusal is not None:
            raise _Refused
        allowed = self._timeouts.body_grace + self.received / self._timeouts.body_min_rate
        started = time.monotonic()
        try:
            message = await asyncio.wait_for(self._receive(), max(allowed - self.waited, 0.0))
        except TimeoutError:
            self.refusal = _too_slow(self._timeouts)
            raise _Refused from None
        self.waited += time.monotonic() - started
        self.received += len(message.get("body", b""))
        if self.received > self._rule.allowed:
            self.refusal = self._rule.refusal()
            raise _Refused
        return message


class BodyGuard:
    """The body limits and the data rate on every HTTP request."""

    def __init__(self, app: ASGIApp, *, limits: BodyLimits, timeouts: EdgeTimeouts) -> None:
        self.app, self.limits, self.timeouts = app, limits, timeouts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rule = self.limits.rule(scope)
        declared = _declared_length(scope)
        if declared is not None and declared > rule.allowed:
            await rule.refusal(declared)(scope, receive, send)
            return
        body = _GuardedBody(receive, rule, self.timeouts)
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if body.refusal is not None and not started:
                return  # the app's answer to a body it could not read; ours goes instead
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, body.receive, guarded_send)
        except _Refused:
            if started:
                raise
        if body.refusal is not None and not started:
            await body.refusal(scope, receive, send)


def _declared_length(scope: Scope) -> int | None:
    for key, value in scope["headers"]:
        if key == b"content-length" and value.isdigit():
            return int(value)
    return None


def _too_slow(timeouts: EdgeTimeouts) -> Response:
    rate = timeouts.body_min_rate / 1024
    message = f"the request body arrived too slowly (under {rate:.0f} KB/s on average)"
    response = error_response(408, "RequestTimeout", message, "request body")
    response.headers["Connection"] = "close"
    return response
