"""The admin page and its API: users and orgs, for site administrators only.

A site administrator is the install's owner (the install token) or an account with the
``admin`` flag (the first account made, or ``askalong user add --admin``). Anyone else
gets 404 for the page and for every route here, as for a document they may not see: an
intruder learns nothing, not even that the page exists. Being an administrator grants no
sight of documents: the page changes a document's visibility through the documents' own
route, which decides by ownership and org roles as always.

- ``GET /admin`` (and ``/admin/admin.js``): the page (``static/admin/``).
- ``GET /api/admin/users`` → ``{users, memberships}``; ``POST /api/admin/users``
  ``{user}`` → ``{user, password}``: a generated first password, in this reply only;
  ``PATCH /api/admin/users/{user}`` ``{disabled}`` → ``{user}`` (not oneself: 400).
- ``GET /api/admin/orgs`` → ``{orgs, memberships}`` (the tree: each org's ``parent``);
  ``POST /api/admin/orgs`` ``{org, parent}`` → ``{org}``;
  ``PUT /api/admin/orgs/{org}/members/{user}`` ``{role}`` → ``{membership}``;
  ``DELETE`` of the same → 204.
- ``GET /api/admin/feedback``: every asker's feedback with its triage (``admin_feedback``).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse, Response
from starlette.concurrency import run_in_threadpool

from askalong.errors import InputError, NotFound
from askalong.server.admin_schemas import (
    MemberIn,
    MembershipOut,
    NamePath,
    NewOrgIn,
    NewUserIn,
    NewUserOut,
    OrgOut,
    OrgsOut,
    UserChangeIn,
    UserOut,
    UsersOut,
)
from askalong.server.deps import AccessDep, StateDep
from askalong.server.schemas import ErrorOut
from askalong.store.base import Store
from askalong.types import Access
from askalong.wire import membership_json, org_json, user_json

router = APIRouter(tags=["admin"])
PAGE_DIR = Path(__file__).resolve().parents[1] / "static" / "admin"
PAGE_FILES = {"": "admin.html", "admin.js": "admin.js", "feedback.js": "feedback.js"}
PASSWORD_BYTES = 12  # 16 URL-safe characters: above MIN_PASSWORD_CHARS, easy to pass on
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (400, 404, 413)
}


def is_admin(store: Store, access: Access) -> bool:
    if access.everything:
        return True
    user = store.get_user(access.user)
    return user is not None and user.admin and not user.disabled


async def admin_store(state: StateDep, access: AccessDep) -> Store:
    """The store, for a site administrator; 404 for anyone else (never 403)."""
    store = state.library.store
    if not await run_in_threadpool(is_admin, store, access):
        raise NotFound("no such page", source="admin")
    return store


AdminStore = Annotated[Store, Depends(admin_store)]


@router.get("/admin", include_in_schema=False)
async def page(store: AdminStore) -> FileResponse:
    return FileResponse(PAGE_DIR / PAGE_FILES[""])


@router.get("/admin/{name:path}", include_in_schema=False)
async def page_file(name: str, store: AdminStore) -> FileResponse:
    if name not in PAGE_FILES:
        raise NotFound("no such page", source="admin")
    return FileResponse(PAGE_DIR / PAGE_FILES[name])


@router.get("/api/admin/users", response_model=UsersOut, responses=ERRORS)
async def list_users(store: AdminStore) -> UsersOut:
    """Every account with its memberships."""
    users, members = await run_in_threadpool(lambda: (store.list_users(), store.memberships()))
    return UsersOut(
        users=[user_json(u) for u in users], memberships=[membership_json(m) for m in members]
    )


@router.post("/api/admin/users", response_model=NewUserOut, status_code=201, responses=ERRORS)
async def add_user(body: NewUserIn, store: AdminStore) -> NewUserOut:
    """A new account with a generated password, returned here once and never again."""
    password = secrets.token_urlsafe(PASSWORD_BYTES)
    made = await run_in_threadpool(lambda: store.add_user(body.user, password, admin=False))
    return NewUserOut(user=user_json(made), password=password)


@router.patch("/api/admin/users/{user}", response_model=UserOut, responses=ERRORS)
async def change_user(
    user: NamePath, body: UserChangeIn, store: AdminStore, access: AccessDep
) -> UserOut:
    """Disable (sessions and tokens stop at once) or enable an account."""
    if body.disabled and user == access.user:
        raise InputError("an administrator cannot disable themselves", source=user)
    changed = await run_in_threadpool(store.set_disabled, user, body.disabled)
    return UserOut(user=user_json(changed))


@router.get("/api/admin/orgs", response_model=OrgsOut, responses=ERRORS)
async def list_orgs(store: AdminStore) -> OrgsOut:
    """Every org (``parent`` makes the tree) and every membership."""
    orgs, members = await run_in_threadpool(lambda: (store.list_orgs(), store.memberships()))
    return OrgsOut(
        orgs=[org_json(o) for o in orgs], memberships=[membership_json(m) for m in members]
    )


@router.post("/api/admin/orgs", response_model=OrgOut, status_code=201, responses=ERRORS)
async def add_org(body: NewOrgIn, store: AdminStore) -> OrgOut:
    """A new org, under ``parent`` or at a root."""
    made = await run_in_threadpool(store.add_org, body.org, body.parent)
    return OrgOut(org=org_json(made))


@router.put("/api/admin/orgs/{org}/members/{user}", response_model=MembershipOut, responses=ERRORS)
async def set_member(
    org: NamePath, user: NamePath, body: MemberIn, store: AdminStore
) -> MembershipOut:
    """Make ``user`` a member (or admin) of ``org``; a role given again replaces the old."""
    made = await run_in_threadpool(store.set_member, org, user, body.role)
    assert made is not None  # a role was given
    return MembershipOut(membership=membership_json(made))


@router.delete("/api/admin/orgs/{org}/members/{user}", status_code=204, responses=ERRORS)
async def remove_member(org: NamePath, user: NamePath, store: AdminStore) -> Response:
    """Take ``user`` out of ``org``."""
    await run_in_threadpool(store.set_member, org, user, None)
    return Response(status_code=204)
