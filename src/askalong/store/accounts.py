"""The accounts' protocols: users with their API tokens, organisations with their
memberships (``askalong.values.accounts``); aggregates ``Store`` joins (``askalong.store.base``)."""

from __future__ import annotations

from typing import Protocol

from askalong.types import Access
from askalong.values.accounts import ApiToken, Membership, Org, Role, User


class UserStore(Protocol):
    """Accounts and their API tokens. A disabled user's password and tokens stop working
    at once: every check reads the flag. No accounts at all is the zero-config install.
    A user id is kept as given and compared without case (``Alice`` finds ``alice``)."""

    def add_user(self, user_id: str, password: str, *, admin: bool | None = None) -> User:
        """A new user (``InputError`` if the id is invalid or taken in any case, or the
        password short);
        ``admin`` None: a site administrator exactly when it is the first account."""
        ...

    def list_users(self) -> list[User]: ...

    def get_user(self, user_id: str) -> User | None: ...

    def has_users(self) -> bool:
        """Whether any account exists: the server is multi-user from the first one."""
        ...

    def set_disabled(self, user_id: str, disabled: bool) -> User:
        """Disabling also ends every session of the user for good (enabling again revives
        none)."""
        ...

    def set_password(self, user_id: str, password: str, *, keep_session: str | None = None) -> User:
        """A new password (``InputError`` if short); every session of the user ends but
        ``keep_session`` (the nonce of the session that changed it)."""
        ...

    def check_password(self, user_id: str, password: str) -> User | None:
        """The user, if enabled and ``password`` is theirs; None otherwise (never why).
        ``user_id`` in any case finds the user: ids are compared without case."""
        ...

    def create_token(self, user_id: str, label: str = "") -> tuple[ApiToken, str]:
        """A new API token and its secret, which is shown once and never stored."""
        ...

    def revoke_token(self, token_id: str) -> ApiToken: ...

    def list_tokens(self, user_id: str | None = None) -> list[ApiToken]: ...

    def user_of_token(self, secret: str) -> User | None:
        """The enabled user whose live token ``secret`` is; None otherwise."""
        ...


class OrgStore(Protocol):
    """Organisations as a tree, memberships with a role, and from them each user's
    ``Access`` (computed once per request by the edge)."""

    def add_org(self, org_id: str, parent: str | None = None) -> Org: ...

    def list_orgs(self) -> list[Org]: ...

    def set_member(self, org_id: str, user_id: str, role: Role | None) -> Membership | None:
        """Make ``user_id`` a member of ``org_id`` with ``role``; None removes them."""
        ...

    def memberships(self, user_id: str | None = None) -> list[Membership]: ...

    def access_of(self, user_id: str) -> Access:
        """The user's ``Access``: ``orgs`` their orgs and every ancestor of those,
        ``admin_of`` the orgs they administer, ``member_of``
        their own orgs (what documents they add are tagged with)."""
        ...
