"""The JSON forms of accounts: users, organisations, memberships and API tokens (never a
password hash or a token's digest; a token's secret only in the reply that made it)."""

from __future__ import annotations

from typing import cast

from typing_extensions import TypedDict

from askalong.values.accounts import ApiToken, Membership, Org, User
from askalong.wire.derived import value_json


class UserJSON(TypedDict):
    id: str
    created: str
    disabled: bool
    admin: bool


class OrgJSON(TypedDict):
    id: str
    parent: str | None
    created: str


class MembershipJSON(TypedDict):
    org: str
    user: str
    role: str


class TokenJSON(TypedDict):
    id: str
    user: str
    label: str
    created: str
    revoked: bool


def user_json(user: User) -> UserJSON:
    return cast(UserJSON, value_json(user))


def org_json(org: Org) -> OrgJSON:
    return cast(OrgJSON, value_json(org))


def membership_json(membership: Membership) -> MembershipJSON:
    return cast(MembershipJSON, value_json(membership))


def token_json(token: ApiToken) -> TokenJSON:
    return cast(TokenJSON, value_json(token))
