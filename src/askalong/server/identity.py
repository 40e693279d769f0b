"""Who is asking, decided once per request by the gate: the local owner, an account, or
nobody (then the gate answers 401).

- The install token (``Authorization: Bearer``, ``X-AskAlong-Token``, or the install
  cookie that ``?token=`` sets) is the local owner, who sees everything: the machine's
  owner keeps the access they had before accounts existed.
- With no account (and ``ASKALONG_AUTH`` not ``required``) that is the only identity: the
  zero-config install, unchanged.
- Multi-user (the first account made, or ``ASKALONG_AUTH=required``): an account's API
  token (``Authorization: Bearer aa_...``) or its session cookie (``sessions.py``, while
  the store holds the session and its user is enabled) is that user, with the ``Access``
  the store computes (their orgs and every ancestor). A session on a state-changing
  request must bring its CSRF token too.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from askalong.server.sessions import CSRF_HEADER, SESSION_PREFIX, Session, SessionSigner
from askalong.server.token import matches, session_value
from askalong.store.base import Store
from askalong.store.credentials import is_account_token
from askalong.types import Access

TOKEN_HEADER = "x-askalong-token"
INSTALL_COOKIE_PREFIX = "askalong_session_"  # + the server's port: two servers keep two
ACCESS_KEY = "askalong.access"  # the scope entry the gate puts the caller's Access in
SESSION_KEY = "askalong.session"  # and the account session it came with, if any


@dataclass(frozen=True)
class Caller:
    """The request's identity: ``access`` is None when no credential was given or held;
    ``csrf_missing`` when a session cookie came without its CSRF token on a write;
    ``multi`` whether the server was multi-user when asked."""

    access: Access | None
    csrf_missing: bool = False
    session: Session | None = None
    multi: bool = False


class Identities:
    """Resolves a request's credential against the install token and the store."""

    def __init__(self, install_token: str) -> None:
        self.install_token = install_token
        self.install_session = session_value(install_token)
        self.signer = SessionSigner(install_token)

    def caller(self, request: Request, store: Store | None, *, writes: bool, multi: bool) -> Caller:
        """Runs in the thread pool (it reads the store)."""
        bearer = _bearer(request)
        if bearer is not None and matches(bearer, self.install_token):
            return Caller(Access.local())
        cookie = request.cookies.get(INSTALL_COOKIE_PREFIX + port_of(request))
        if cookie is not None and matches(cookie, self.install_session):
            return Caller(Access.local())
        if not multi or store is None:
            return Caller(None)
        if bearer is not None and is_account_token(bearer):
            user = store.user_of_token(bearer)
            return Caller(None if user is None else store.access_of(user.id), multi=True)
        return self._session_caller(request, store, writes=writes)

    def _session_caller(self, request: Request, store: Store, *, writes: bool) -> Caller:
        cookie = request.cookies.get(SESSION_PREFIX + port_of(request))
        session = None if cookie is None else self.signer.read(cookie)
        if session is None or not store.session_live(session.user, session.nonce):
            return Caller(None, multi=True)
        if writes and not self.signer.csrf_ok(session, request.headers.get(CSRF_HEADER, "")):
            return Caller(None, csrf_missing=True, multi=True)
        return Caller(store.access_of(session.user), session=session, multi=True)


def multi_user(store: Store | None, auth: str) -> bool:
    return auth == "required" or (store is not None and store.has_users())


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.headers.get(TOKEN_HEADER)


def port_of(request: Request) -> str:
    server = request.scope.get("server")
    return str(int(server[1]) if server and server[1] is not None else 0)
