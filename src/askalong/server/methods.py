"""``OPTIONS`` and ``405`` answered from one table of every route's methods.

The router answers a method a path does not take from the first route whose path matches
(or from the reader's static mount at ``/``, which takes every path), so ``Allow`` named
only part of what a path takes (``OPTIONS /api/documents``: ``GET, HEAD``, no ``POST``).
The table is built once, in ``create_app``, from the routes themselves (FastAPI wraps
included routers, so it reads each ``APIRouter``'s own routes); a path in it is answered
here: ``OPTIONS`` with ``204`` and the full ``Allow``, a method it does not take with a JSON
``405`` and the same ``Allow``. Any other path goes on to the router unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.responses import Response
from starlette.routing import BaseRoute, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from askalong.server.errors import error_response

# The order ``Allow`` lists methods in (any other method after these, sorted).
METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


@dataclass(frozen=True)
class PathMethods:
    """One path template (``/api/documents/{doc}``), its pattern, and the methods it takes."""

    template: str
    pattern: re.Pattern[str]
    methods: frozenset[str]
    own_options: bool = False  # a route answers OPTIONS itself (tus: its capabilities)


@dataclass(frozen=True)
class MethodTable:
    """Every routed path template with the union of its routes' methods."""

    paths: tuple[PathMethods, ...]

    @classmethod
    def of(cls, routes: Iterable[BaseRoute]) -> MethodTable:
        """The table of ``routes`` that have a path and methods (mounts have neither)."""
        methods: dict[str, set[str]] = {}
        for route in routes:
            path, taken = getattr(route, "path", None), getattr(route, "methods", None)
            if isinstance(path, str) and taken:
                methods.setdefault(path, set()).update(taken)
        return cls(
            tuple(
                PathMethods(
                    path,
                    compile_path(path)[0],
                    frozenset(taken | {"OPTIONS"}),
                    own_options="OPTIONS" in taken,
                )
                for path, taken in methods.items()
            )
        )

    def answers_options(self, path: str) -> bool:
        """A route of ``path`` answers ``OPTIONS`` itself (then this middleware does not)."""
        return any(entry.own_options for entry in self.paths if entry.pattern.match(path))

    def allowed(self, path: str) -> frozenset[str] | None:
        """The methods ``path`` takes (``OPTIONS`` included), or None: no route matches."""
        found = [entry.methods for entry in self.paths if entry.pattern.match(path)]
        return frozenset().union(*found) if found else None


def allow_header(methods: frozenset[str]) -> str:
    known = [method for method in METHOD_ORDER if method in methods]
    return ", ".join([*known, *sorted(methods - set(METHOD_ORDER))])


class AllowedMethods:
    """Plain ASGI middleware answering ``OPTIONS`` and unsupported methods from the table."""

    def __init__(self, app: ASGIApp, table: MethodTable) -> None:
        self.app = app
        self.table = table

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        allowed = self.table.allowed(scope["path"]) if scope["type"] == "http" else None
        method = scope.get("method", "")
        own_options = method == "OPTIONS" and self.table.answers_options(scope["path"])
        if allowed is None or (method in allowed and method != "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = {"Allow": allow_header(allowed)}
        if own_options:  # the route answers (tus: its capabilities), with the full Allow
            await self.app(scope, receive, _with_header(send, "allow", headers["Allow"]))
            return
        if method == "OPTIONS":
            response = Response(status_code=204, headers=headers)
        else:
            message = f"{method} is not allowed on {scope['path']}; it takes {headers['Allow']}"
            response = error_response(405, "HTTPError", message)
            response.headers.update(headers)
        await response(scope, receive, send)


def _with_header(send: Send, name: str, value: str) -> Send:
    """``send`` adding the header ``name: value`` to the response's start."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            kept = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() != name]
            message = {**message, "headers": [*kept, (name.encode(), value.encode())]}
        await send(message)

    return sending
