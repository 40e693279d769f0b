"""Who may talk to the server: three checks on every request, before any route runs.

1. **Host.** Only the names the server was started for: 127.0.0.1, localhost, [::1] and the
   ``--host`` given, each with the server's own port, plus ``ASKALONG_ALLOWED_HOSTS`` (any
   port: a reverse proxy's public name). A DNS-rebinding page arrives under its own name and
   is refused (421). Listening on every interface (``0.0.0.0``), an IP address also passes:
   a page cannot make a browser send an IP literal as the Host of a name it controls.
2. **Origin.** A state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin`` is not
   the server's own, or marked ``Sec-Fetch-Site: cross-site``/``same-site``, is refused
   (403): a web page cannot upload or delete. Scripts send no Origin and pass this check.
3. **Credential.** Every request (the reader's pages and files, ``/api``, ``/docs``,
   ``/openapi.json``) carries the install token (``Authorization: Bearer``,
   ``X-AskAlong-Token``) or the browser session cookie; otherwise 401. A GET of a page with
   ``?token=`` (the address ``askalong serve`` prints) sets the cookie (HttpOnly,
   SameSite=Strict) and redirects to the clean address, as Jupyter does. Multi-user
   (``identity.py``), an account's token or session also passes, a session's write
   without its CSRF token is refused (403), and only the login page, its script and
   ``POST /api/login`` are open to anyone; a page asked for without a credential then
   redirects to the login page. Who passed is put in the request's scope
   (``ACCESS_KEY``), where ``deps.current_access`` reads it: resolved once per request.

Plain ASGI (unlike BaseHTTPMiddleware it leaves streaming responses alone).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import SplitResult, urlencode, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from askalong.server.deps import served_store
from askalong.server.errors import error_response
from askalong.server.identity import (
    ACCESS_KEY,
    INSTALL_COOKIE_PREFIX,
    SESSION_KEY,
    Caller,
    Identities,
    multi_user,
)
from askalong.server.token import matches
from askalong.store.base import Store

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FOREIGN_SITES = frozenset({"cross-site", "same-site"})
TOKEN_PARAMETER = "token"
COOKIE_PREFIX = INSTALL_COOKIE_PREFIX
LOGIN_PAGE = "/login.html"
# Open without a credential: what it takes to sign in, the login page's modules included
# (its words come from the UI catalogue; a module refused here leaves the form without
# its script). tests/unit/test_login_open_paths.py follows login.html's imports and fails
# when this list and what the page loads differ.
OPEN_PATHS = frozenset(
    {
        LOGIN_PAGE,
        "/login/login.js",
        "/lib/i18n.js",
        "/lib/strings/en.js",
        "/lib/strings/zh-Hans.js",
        "/lib/language-switch.js",
        "/lib/dom.js",
        "/app.css",
        "/favicon.svg",
    }
)
LOGIN_ROUTE = "/api/login"
NO_CSRF = "this request needs the session's CSRF token in the X-CSRF-Token header"
COOKIE_MAX_AGE = 30 * 24 * 3600
WRONG_TOKEN = "the token in the address is not this server's ('askalong token' prints it)"
NO_CREDENTIAL = (
    "this server needs its API token: send 'Authorization: Bearer <token>' (the token is "
    "printed by 'askalong token'), or open the address 'askalong serve' printed (?token=...)"
)


@dataclass(frozen=True)
class HostRule:
    """The Host header values the server answers to."""

    names: frozenset[str]  # with the server's own port
    anywhere: frozenset[str]  # configured names, any port
    any_address: bool  # bound to every interface: IP literals pass

    @classmethod
    def of(cls, listen_host: str, allowed: str = "") -> HostRule:
        given = listen_host.strip("[]").lower()
        extra = frozenset(name.strip().lower() for name in allowed.split(",") if name.strip())
        wildcard = given in WILDCARD_HOSTS
        names = frozenset(LOOPBACK_NAMES) | (frozenset() if wildcard else {given})
        return cls(names, extra, wildcard)

    def allows(self, host: str, server_port: int | None) -> bool:
        parts = _host_parts(host)
        if parts is None or not parts.hostname:
            return False
        name, port = parts.hostname, parts.port or 80
        if name in self.anywhere:
            return True
        if server_port is not None and port != server_port:
            return False
        return name in self.names or (self.any_address and _is_address(name))


class Gate:
    """The three checks (module docstring), in that order, on every HTTP request."""

    def __init__(
        self, app: ASGIApp, *, hosts: HostRule, identities: Identities, auth: str = "auto"
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.identities = identities
        self.auth = auth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self.refusal(request) or await self._admit(request, scope)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await refusal(scope, receive, send)

    def refusal(self, request: Request) -> Response | None:
        """The response that stops ``request`` before its credential is looked at."""
        host = request.headers.get("host", "")
        if not self.hosts.allows(host, _server_port(request)):
            return error_response(421, "UnknownHost", f"this server does not answer to {host!r}")
        if request.method in UNSAFE_METHODS and not _same_origin(request, host):
            origin = request.headers.get("origin", "another site")
            return error_response(403, "CrossOrigin", f"refused a request from {origin}")
        if TOKEN_PARAMETER in request.query_params and _is_page(request):
            return self._entry(request)
        return None

    async def _admit(self, request: Request, scope: Scope) -> Response | None:
        """Who is asking, into the scope; or the 401/403 that stops an unknown caller."""
        store = served_store(scope)
        writes = request.method in UNSAFE_METHODS
        caller: Caller = await run_in_threadpool(self._caller, request, store, writes)
        if caller.access is not None:
            scope[ACCESS_KEY] = caller.access
            scope[SESSION_KEY] = caller.session
            return None
        path = request.url.path
        if path in OPEN_PATHS or path == LOGIN_ROUTE:  # signing in needs no session's token
            return None
        if caller.csrf_missing:
            return error_response(403, "CsrfMissing", NO_CSRF)
        if caller.multi and _is_page(request):
            return RedirectResponse(LOGIN_PAGE, status_code=303)
        refused = error_response(401, "Unauthorized", NO_CREDENTIAL)
        refused.headers["WWW-Authenticate"] = "Bearer"
        return refused

    def _caller(self, request: Request, store: Store | None, writes: bool) -> Caller:
        multi = multi_user(store, self.auth)
        return self.identities.caller(request, store, writes=writes, multi=multi)

    def _entry(self, request: Request) -> Response:
        """``?token=``: the cookie set, then the same address without the token."""
        if not matches(request.query_params[TOKEN_PARAMETER], self.identities.install_token):
            return error_response(401, "Unauthorized", WRONG_TOKEN)
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != TOKEN_PARAMETER]
        clean = request.url.path + (f"?{urlencode(rest)}" if rest else "")
        response = RedirectResponse(clean, status_code=303, headers={"Cache-Control": "no-store"})
        response.set_cookie(
            cookie_name(request),
            self.identities.install_session,
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="strict",
        )
        return response


def cookie_name(request: Request) -> str:
    return f"{COOKIE_PREFIX}{_server_port(request) or 0}"


def _same_origin(request: Request, host: str) -> bool:
    if request.headers.get("sec-fetch-site", "").lower() in FOREIGN_SITES:
        return False
    origin = request.headers.get("origin")
    return origin is None or origin.lower() == f"{request.url.scheme}://{host}".lower()


def _is_page(request: Request) -> bool:
    """A GET of something the reader shows (never ``/api``: tokens stay out of API URLs)."""
    return request.method == "GET" and not request.url.path.startswith("/api/")


def _server_port(request: Request) -> int | None:
    server = request.scope.get("server")
    return int(server[1]) if server and server[1] is not None else None


def _host_parts(host: str) -> SplitResult | None:
    try:
        parts = urlsplit(f"//{host}")
        parts.port  # noqa: B018 - raises on a port that is no number
    except ValueError:
        return None
    return parts


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
