"""Signing in and out, and who the request runs as.

``POST /api/login`` ``{user, password}`` → ``{user, multi_user, csrf_token, orgs}`` and
the session cookie (HttpOnly, SameSite=Lax) plus a readable CSRF cookie; a wrong user,
password or a disabled account all get the same 401; the user id in any case will do.
After 5 failures for one account or one client address, tries wait (429 with
``Retry-After``, doubling; ``server/login_guard``). ``POST /api/logout`` → 204: the
session ends on the server and the cookies are cleared. ``POST /api/password``
``{password, new_password}`` → 204: the signed-in account's new password (the current one
checked, throttled as a login); every other session of the account ends.
``GET /api/session`` → the same shape as the login reply for the caller.
The login page (``/login.html``) uses the first; the reader may use the last to learn its
CSRF token. With no account (and ``ASKALONG_AUTH`` not ``required``), login is a 400:
the server runs as its local owner and asks no one to sign in.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from askalong.errors import InputError
from askalong.server.deps import AccessDep, StateDep
from askalong.server.identity import SESSION_KEY, multi_user, port_of
from askalong.server.login_guard import LoginGuard, client_address
from askalong.server.schemas import ErrorOut, LoginIn, PasswordIn, SessionOut, TooManyOut
from askalong.server.sessions import CSRF_PREFIX, SESSION_PREFIX, SESSION_SECONDS, Session

router = APIRouter(prefix="/api", tags=["accounts"])
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    401: {"model": ErrorOut},
    413: {"model": ErrorOut},  # a user or password over its maxLength
    429: {"model": TooManyOut},  # too many failed tries: wait Retry-After seconds
}


@router.post("/login", response_model=SessionOut, responses=ERRORS)
async def login(body: LoginIn, request: Request, state: StateDep) -> Response:
    """Sign in with a password: sets the session cookie and returns the CSRF token."""
    store = state.library.store
    if not await run_in_threadpool(multi_user, store, state.library.settings.auth):
        raise InputError("this server has no accounts: it runs as its owner, no login")
    guard: LoginGuard = request.app.state.login_guard
    address = client_address(request)
    user = await run_in_threadpool(guard.checked, store, body.user, body.password, address)
    signer = request.app.state.identities.signer
    cookie = signer.issue(user.id)
    session = signer.read(cookie)
    expired_before = session.issued - SESSION_SECONDS
    await run_in_threadpool(
        store.open_session, user.id, session.nonce, session.issued, expired_before
    )
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
async def logout(request: Request, state: StateDep, access: AccessDep) -> Response:
    """Sign out: the session ends on the server and its cookies are cleared."""
    current = request.scope.get(SESSION_KEY)
    if isinstance(current, Session):
        await run_in_threadpool(state.library.store.end_session, current.nonce)
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
    return SessionOut(
        user=access.user,
        multi_user=multi,
        csrf_token=csrf,
        orgs=list(access.orgs),
        admin_of=list(access.admin_of),
    )


@router.post("/password", status_code=204, responses=ERRORS)
async def change_password(
    body: PasswordIn, request: Request, state: StateDep, access: AccessDep
) -> Response:
    """A new password for the signed-in account; its other sessions end."""
    store = state.library.store
    if access.everything:
        raise InputError("the install's owner has no password; it signs in with its token")
    guard: LoginGuard = request.app.state.login_guard
    address = client_address(request)
    await run_in_threadpool(guard.checked, store, access.user, body.password, address)
    current = request.scope.get(SESSION_KEY)
    keep = current.nonce if isinstance(current, Session) else None
    await run_in_threadpool(
        lambda: store.set_password(access.user, body.new_password, keep_session=keep)
    )
    return Response(status_code=204)
