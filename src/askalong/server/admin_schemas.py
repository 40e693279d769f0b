"""The JSON shapes of the admin API (``routes/admin.py``): users, orgs and memberships as
``askalong.wire`` writes them (what ``askalong user list --json`` prints), in envelopes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import BaseModel, BeforeValidator, Field

from askalong.server.schemas import whole_unicode
from askalong.values.accounts import Role
from askalong.wire import MembershipJSON, OrgJSON, UserJSON

# A user or org id (store/sql/users.check_name says what it may hold).
NameText = Annotated[str, Field(min_length=1, max_length=64), BeforeValidator(whole_unicode)]
NamePath = Annotated[str, Path(min_length=1, max_length=64)]


class UsersOut(BaseModel):
    users: list[UserJSON]
    memberships: list[MembershipJSON]


class UserOut(BaseModel):
    user: UserJSON


class NewUserIn(BaseModel):
    user: NameText


class NewUserOut(BaseModel):
    """The user made and its first password, shown in this reply only (never stored)."""

    user: UserJSON
    password: str


class UserChangeIn(BaseModel):
    disabled: bool


class OrgsOut(BaseModel):
    orgs: list[OrgJSON]
    memberships: list[MembershipJSON]


class NewOrgIn(BaseModel):
    org: NameText
    parent: NameText | None = None


class OrgOut(BaseModel):
    org: OrgJSON


class MemberIn(BaseModel):
    role: Role


class MembershipOut(BaseModel):
    membership: MembershipJSON
