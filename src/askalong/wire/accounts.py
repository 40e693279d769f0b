"""The JSON forms of accounts: users, organisations, memberships and API tokens (never a
password hash or a token's digest; a token's secret only in the reply that made it)."""

from __future__ import annotations

from typing_extensions import TypedDict

from askalong.values.accounts import ApiToken, Membership, Org, User


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
    return {
        "id": user.id,
        "created": user.created,
        "disabled": user.disabled,
        "admin": user.admin,
    }


def org_json(org: Org) -> OrgJSON:
    return {"id": org.id, "parent": org.parent, "created": org.created}


def membership_json(membership: Membership) -> MembershipJSON:
    return {"org": membership.org, "user": membership.user, "role": membership.role}


def token_json(token: ApiToken) -> TokenJSON:
    return {
        "id": token.id,
        "user": token.user,
        "label": token.label,
        "created": token.created,
        "revoked": token.revoked,
    }
