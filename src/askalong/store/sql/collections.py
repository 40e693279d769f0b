"""Collections in the SQL store: ``SqlCollections`` (a ``CollectionStore``) and its SQL.

A collection is private to its owner (``everything`` sees all), as a thread is; its
members are read through the documents' permission filter (``access_filter``), so a
member the caller may not see is neither listed nor counted. Memberships go away with
either side (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from askalong.errors import InputError, NotFound
from askalong.store.sql.database import SqlConnection, SqlDatabase
from askalong.store.sql.documents import SqlFilter, access_filter
from askalong.store.sql.row_maps import RowMap
from askalong.store.sql.rows import DOCUMENTS
from askalong.types import Access, Document
from askalong.values.collections import Collection

MAX_NAME_CHARS = 200

# The visible members of ``c``: ``{visible}`` is the documents' permission filter.
_MEMBERS = (
    "FROM collection_documents m JOIN documents d ON d.id = m.document_id"
    " WHERE m.collection_id = c.id AND {visible}"
)
COLLECTIONS = RowMap(Collection, "collections", read_only=frozenset({"documents", "chunks"}))
_SELECT_COLLECTION = (
    f"SELECT {COLLECTIONS.selected('c')},"
    f" (SELECT count(*) {_MEMBERS}) AS documents,"
    " (SELECT count(*) FROM chunks k WHERE k.document_id IN"
    f" (SELECT d.id {_MEMBERS})) AS chunks"
    " FROM collections c"
)


class SqlCollections(SqlDatabase):
    """``CollectionStore`` over the shared connection."""

    def add_to_collection(
        self, name: str, document_ids: Sequence[str], access: Access
    ) -> Collection:
        name = check_name(name)
        with self._lock, self._errors(name), self._transaction() as conn:
            _require_visible(conn, document_ids, access)
            collection_id = _own_collection(conn, name, access.user)
            added = _now()
            conn.executemany(
                "INSERT INTO collection_documents VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                ((collection_id, doc_id, added) for doc_id in dict.fromkeys(document_ids)),
            )
            return _select(conn, "c.id = ?", (collection_id,), access)[0]

    def get_collection(self, ref: str, access: Access) -> Collection:
        with self._lock, self._errors(ref):
            found = _select(self._conn, "c.id = ?", (ref,), access)
            if not found:  # a name: the caller's own first, then (everything) anyone's
                found = _select(
                    self._conn, "c.name = ? AND c.owner = ?", (ref, access.user), access
                )
            if not found:
                found = _select(self._conn, "c.name = ?", (ref,), access)
        if not found:
            raise NotFound("no such collection", source=ref)
        if len(found) > 1:
            owners = ", ".join(c.owner for c in found)
            raise InputError(
                f"several collections have this name (owners {owners}); give its id", source=ref
            )
        return found[0]

    def list_collections(self, access: Access) -> list[Collection]:
        with self._lock, self._errors("collections"):
            return _select(self._conn, "1 = 1", (), access)

    def collection_documents(self, collection_id: str, access: Access) -> list[Document]:
        visible = access_filter(access)
        with self._lock, self._errors(collection_id):
            rows = self._conn.execute(
                f"{self.dialect.select_document}"
                " JOIN collection_documents m ON m.document_id = d.id"
                f" WHERE m.collection_id = ? AND {visible.sql} ORDER BY d.title, d.id",
                (collection_id, *visible.params),
            )
            return [DOCUMENTS.value(row) for row in rows]

    def collection_document_ids(self, collection_id: str, access: Access) -> list[str]:
        # Ids only: a search filter needs no more, and decoding 1,169 document rows costs
        # ~10x this query (benchmarks/collection_search.py).
        visible = access_filter(access)
        with self._lock, self._errors(collection_id):
            rows = self._conn.execute(
                "SELECT d.id FROM collection_documents m JOIN documents d ON d.id = m.document_id"
                f" WHERE m.collection_id = ? AND {visible.sql} ORDER BY d.id",
                (collection_id, *visible.params),
            )
            return [row[0] for row in rows]

    def document_collections(self, document_id: str, access: Access) -> list[Collection]:
        with self._lock, self._errors(document_id):
            return _select(
                self._conn,
                "c.id IN (SELECT collection_id FROM collection_documents WHERE document_id = ?)",
                (document_id,),
                access,
            )

    def delete_collection(self, collection_id: str, access: Access) -> None:
        with self._lock, self._errors(collection_id), self._transaction() as conn:
            if not _select(conn, "c.id = ?", (collection_id,), access):
                raise NotFound("no such collection", source=collection_id)
            conn.execute("DELETE FROM collections WHERE id = ?", (collection_id,))


def check_name(name: str) -> str:
    """A collection's name: shown and typed, so non-empty, one line, of bounded length."""
    name = name.strip()
    if not name:
        raise InputError("a collection needs a name", source="collection")
    if len(name) > MAX_NAME_CHARS:
        raise InputError(
            f"a collection name has at most {MAX_NAME_CHARS} characters", source=name[:40]
        )
    if any(ch in name for ch in "\r\n\t") or not name.isprintable():
        raise InputError(
            "a collection name must be printable text on one line", source="collection"
        )
    return name


def _select(
    conn: SqlConnection, where: str, params: tuple[object, ...], access: Access
) -> list[Collection]:
    visible = access_filter(access)
    mine = SqlFilter("1 = 1", ()) if access.everything else SqlFilter("c.owner = ?", (access.user,))
    sql = _SELECT_COLLECTION.format(visible=visible.sql)
    rows = conn.execute(
        f"{sql} WHERE ({where}) AND {mine.sql} ORDER BY c.name, c.owner",
        (*visible.params, *visible.params, *params, *mine.params),
    )
    return [COLLECTIONS.value(row) for row in rows]


def _own_collection(conn: SqlConnection, name: str, owner: str) -> str:
    """The id of ``owner``'s collection ``name``, made now if it does not exist."""
    row = conn.execute(
        "SELECT id FROM collections WHERE owner = ? AND name = ?", (owner, name)
    ).fetchone()
    if row is not None:
        found: str = row[0]
        return found
    collection_id = uuid.uuid4().hex[:16]
    made = Collection(collection_id, owner, name, _now())
    conn.execute(COLLECTIONS.insert, COLLECTIONS.row(made))
    return collection_id


def _require_visible(conn: SqlConnection, document_ids: Sequence[str], access: Access) -> None:
    """Only a document the caller may see can be put in a collection (``NotFound`` as for
    a document that is not there)."""
    visible = access_filter(access)
    for doc_id in document_ids:
        row = conn.execute(
            f"SELECT 1 FROM documents d WHERE d.id = ? AND {visible.sql}", (doc_id, *visible.params)
        ).fetchone()
        if row is None:
            raise NotFound("no such document", source=doc_id)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
