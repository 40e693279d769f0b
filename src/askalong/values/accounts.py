"""The account values: users, their API tokens, organisations as a tree, memberships
with a role. Frozen dataclasses like every pipeline value; the store keeps them and
``wire/accounts`` gives their JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Role = Literal["member", "admin"]
ROLES: tuple[str, ...] = get_args(Role)


@dataclass(frozen=True)
class User:
    """An account: documents it adds are owned by ``id`` (access token ``u:<id>``).
    ``admin``: a site administrator, who manages accounts and orgs (the ``/admin`` page);
    it grants no sight of anyone's documents."""

    id: str
    created: str
    disabled: bool = False
    admin: bool = False


@dataclass(frozen=True)
class Org:
    """An organisation, a node of one tree: ``parent`` is None at a root."""

    id: str
    created: str
    parent: str | None = None


@dataclass(frozen=True)
class Membership:
    org: str
    user: str
    role: Role = "member"


@dataclass(frozen=True)
class ApiToken:
    """An API token as listed: never the secret, which is shown once when made."""

    id: str
    user: str
    label: str
    created: str
    revoked: bool = False
