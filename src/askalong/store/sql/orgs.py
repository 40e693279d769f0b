"""Organisations and memberships in the SQL store: ``SqlOrgs`` (an ``OrgStore``).

The tree is walked with a recursive CTE, up from a member's orgs, for what they may read:
an org's member sees the ``org`` documents of that org and of its ancestors. An admin
re-shares the documents shared with the orgs they administer (``documents._owned``).
"""

from __future__ import annotations

from askalong.errors import InputError, NotFound
from askalong.store.sql.database import SqlConnection, SqlDatabase
from askalong.store.sql.row_maps import RowMap
from askalong.store.sql.rows import found
from askalong.store.sql.users import check_name, now, user_id_of
from askalong.types import Access
from askalong.values.accounts import ROLES, Membership, Org, Role

ORGS = RowMap(Org, "orgs")
_ANCESTORS = (
    "WITH RECURSIVE up(id) AS (SELECT org_id FROM memberships WHERE user_id = ?"
    " UNION SELECT o.parent FROM orgs o JOIN up ON o.id = up.id WHERE o.parent IS NOT NULL)"
    " SELECT id FROM up ORDER BY id"
)
_ADMINISTERED = (
    "SELECT org_id FROM memberships WHERE user_id = ? AND role = 'admin' ORDER BY org_id"
)


class SqlOrgs(SqlDatabase):
    """``OrgStore`` over the shared connection."""

    def add_org(self, org_id: str, parent: str | None = None) -> Org:
        check_name(org_id, "org")
        with self._lock, self._errors(org_id), self._transaction() as conn:
            if _org(conn, org_id) is not None:
                raise InputError("that org exists already", source=org_id)
            if parent is not None and _org(conn, parent) is None:
                raise NotFound("no such parent org", source=parent)
            conn.execute(
                "INSERT INTO orgs (id, parent, created) VALUES (?, ?, ?)", (org_id, parent, now())
            )
            return _require_org(conn, org_id)

    def list_orgs(self) -> list[Org]:
        with self._lock, self._errors("orgs"):
            rows = self._conn.execute(f"{ORGS.select} ORDER BY id")
            return [ORGS.value(row) for row in rows]

    def set_member(self, org_id: str, user_id: str, role: Role | None) -> Membership | None:
        if role is not None and role not in ROLES:
            raise InputError(f"role must be one of {', '.join(ROLES)}", source=str(role))
        with self._lock, self._errors(org_id), self._transaction() as conn:
            _require_org(conn, org_id)
            user_id = found(user_id_of(conn, user_id), "user", user_id)
            conn.execute(
                "DELETE FROM memberships WHERE org_id = ? AND user_id = ?", (org_id, user_id)
            )
            if role is None:
                return None
            conn.execute("INSERT INTO memberships VALUES (?, ?, ?)", (org_id, user_id, role))
            return Membership(org_id, user_id, role)

    def memberships(self, user_id: str | None = None) -> list[Membership]:
        where, params = ("", ()) if user_id is None else (" WHERE user_id = ?", (user_id,))
        with self._lock, self._errors("memberships"):
            rows = self._conn.execute(
                f"SELECT org_id, user_id, role FROM memberships{where} ORDER BY org_id, user_id",
                params,
            )
            return [Membership(row["org_id"], row["user_id"], row["role"]) for row in rows]

    def access_of(self, user_id: str) -> Access:
        with self._lock, self._errors(user_id):
            orgs = tuple(row[0] for row in self._conn.execute(_ANCESTORS, (user_id,)))
            admin = tuple(row[0] for row in self._conn.execute(_ADMINISTERED, (user_id,)))
            direct = tuple(m.org for m in self.memberships(user_id))
        return Access(user=user_id, orgs=orgs, admin_of=admin, member_of=direct)


def _org(conn: SqlConnection, org_id: str) -> Org | None:
    row = conn.execute(f"{ORGS.select} WHERE id = ?", (org_id,)).fetchone()
    return None if row is None else ORGS.value(row)


def _require_org(conn: SqlConnection, org_id: str) -> Org:
    return found(_org(conn, org_id), "org", org_id)
