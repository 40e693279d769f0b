"""Signing in and out, and who the request runs as.

``POST /api/login`` ``{user, password}`` → ``{user, multi_user, csrf_token, orgs}`` and
the session cookie (HttpOnly, SameSite=Lax) plus a readable CSRF cookie; a wrong user,
password or a disabled account all get the same 401. ``POST /api/logout`` → 204, the
cookies cleared. ``GET /api/session`` → the same shape as the login reply for the caller.
The login page (``/login.html``) uses the first; the reader may use the last to learn its
CSRF token. With no account (and ``ASKALONG_AUTH`` not ``required``), login is a 400:
the server runs as its local owner and asks no one to sign in.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from askalong.errors import InputError, Unauthorized
from askalong.server.deps import AccessDep, StateDep
from askalong.server.identity import SESSION_KEY, multi_user, port_of
from askalong.server.schemas import ErrorOut, LoginIn, SessionOut
from askalong.server.sessions import CSRF_PREFIX, SESSION_PREFIX, SESSION_SECONDS, Session

router = APIRouter(prefix="/api", tags=["accounts"])
WRONG = "wrong user or password"
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    401: {"model": ErrorOut},
    413: {"model": ErrorOut},  # a user or password over its maxLength
}


@router.post("/login", response_model=SessionOut, responses=ERRORS)
async def login(body: LoginIn, request: Request, state: StateDep) -> Response:
    """Sign in with a password: sets the session cookie and returns the CSRF token."""
    store = state.library.store
    if not await run_in_threadpool(multi_user, store, state.library.settings.auth):
        raise InputError("this server has no accounts: it runs as its owner, no login")
    user = await run_in_threadpool(store.check_password, body.user, body.password)
    if user is None:
        raise Unauthorized(WRONG, source="login")
    signer = request.app.state.identities.signer
    cookie = signer.issue(user.id)
    session = signer.read(cookie)
    access = await run_in_threadpool(store.access_of, user.id)
    out = SessionOut(
        user=user.id, multi_user=True, csrf_token=signer.csrf(session), orgs=list(access.orgs)
    )
    response = JSONResponse(out.model_dump())
    port = port_of(request)
    response.set_cookie(
        SESSION_PREFIX + port,
        cookie,
        max_age=SESSION_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
    )
    response.set_cookie(
        CSRF_PREFIX + port, out.csrf_token or "", max_age=SESSION_SECONDS, path="/", samesite="lax"
    )
    return response


@router.post("/logout", status_code=204)
async def logout(request: Request, access: AccessDep) -> Response:
    """Sign out: the session and CSRF cookies are cleared."""
    response = Response(status_code=204)
    port = port_of(request)
    for name in (SESSION_PREFIX + port, CSRF_PREFIX + port):
        response.delete_cookie(name, path="/")
    return response


@router.get("/session", response_model=SessionOut)
async def session(request: Request, state: StateDep, access: AccessDep) -> SessionOut:
    """Who this request runs as, and (for an account's session) its CSRF token."""
    multi = await run_in_threadpool(multi_user, state.library.store, state.library.settings.auth)
    current = request.scope.get(SESSION_KEY)
    csrf = None
    if isinstance(current, Session):
        csrf = request.app.state.identities.signer.csrf(current)
    return SessionOut(user=access.user, multi_user=multi, csrf_token=csrf, orgs=list(access.orgs))
