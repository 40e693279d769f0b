"""Documents in the SQL store: ``SqlDocuments`` (a ``DocumentStore``) and its SQL.

The rows live in the database, the original bytes in a folder beside it. The original
is written or set aside while the rows' exclusive transaction is open, so no other
writer can interleave between the file and its rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from askalong.access_tokens import document_tokens
from askalong.errors import InputError, NotFound, StoreError
from askalong.files.base import Aside, OriginalStore
from askalong.files.local import check_content_hash
from askalong.store.base import MIN_PREFIX, DocumentCounts
from askalong.store.sql.database import Row, SqlConnection, SqlDatabase
from askalong.store.sql.pages import insert_page
from askalong.store.sql.rows import (
    CHUNKS,
    DOCUMENTS,
    INSERT_BLOCK,
    SELECT_BLOCK,
    block_from_row,
    block_row,
)
from askalong.types import (
    VISIBILITIES,
    Access,
    Block,
    Chunk,
    Document,
    StoredDocument,
    Visibility,
)

AMBIGUITY_SHOWN = 5  # how many matching ids an ambiguous-prefix error names


@dataclass(frozen=True)
class SqlFilter:
    """A WHERE fragment over ``documents d`` and the parameters its ``?`` marks take."""

    sql: str
    params: tuple[object, ...]


class SqlDocuments(SqlDatabase):
    """``DocumentStore`` over the shared connection and a folder of original files (the
    backend's store class sets ``_files``)."""

    _files: OriginalStore

    # -- writing -----------------------------------------------------------------------

    def add_document(self, doc: StoredDocument, original: bytes) -> None:
        document = doc.document
        check_stored(doc, original)
        with self._lock, self._errors(document.id):
            if self._has(document.id):
                return
            try:
                with self._transaction() as conn:
                    if not self._has(document.id):  # another process may have just added it
                        self._files.save(document.content_hash, original)
                        insert_stored(conn, doc)
            except BaseException:
                self._remove_if_unreferenced(document.content_hash)
                raise

    def delete_document(self, doc_id: str, access: Access) -> None:
        with self._lock, self._errors(doc_id):
            aside: Aside | None = None
            try:
                with self._transaction() as conn:
                    unused = _delete_rows(conn, doc_id, access)
                    # Set the original aside inside the exclusive write; commit makes it final.
                    aside = self._files.set_aside(unused) if unused else None
            except BaseException:
                if aside is not None:
                    self._files.put_back(aside)
                raise
            if aside is not None:
                self._files.discard(aside)

    def set_visibility(self, doc_id: str, visibility: Visibility, access: Access) -> Document:
        if visibility not in VISIBILITIES:
            raise InputError(f"visibility must be one of {', '.join(VISIBILITIES)}", source=doc_id)
        with self._lock, self._errors(doc_id), self._transaction() as conn:
            _owned(conn, doc_id, access, admins=True)
            conn.execute("UPDATE documents SET visibility = ? WHERE id = ?", (visibility, doc_id))
            changed = self._documents("d.id = ?", (doc_id,), Access.local())[0]
            tokens = document_tokens(changed.owner, changed.visibility, changed.org_tags)
            conn.execute("DELETE FROM document_access WHERE document_id = ?", (doc_id,))
            _write_tokens(conn, doc_id, tokens)
            return changed

    def add_page(
        self, doc_id: str, page: int, blocks: tuple[Block, ...], chunks: tuple[Chunk, ...]
    ) -> bool:
        with self._lock, self._errors(doc_id), self._transaction() as conn:
            return insert_page(conn, doc_id, page, blocks, chunks)

    # -- reading -----------------------------------------------------------------------

    def has_document(self, doc_id: str) -> bool:
        with self._lock, self._errors(doc_id):
            return self._has(doc_id)

    def get_document(self, ref: str, access: Access) -> Document:
        with self._lock, self._errors(ref):
            found = self._documents("d.id = ?", (ref,), access)
            if found:
                return found[0]
            if len(ref) < MIN_PREFIX:
                raise InputError(f"give at least {MIN_PREFIX} characters of an id", source=ref)
            # Text sorts by UTF-8 bytes, so [ref, ref + U+10FFFF) is every id starting with ref.
            found = self._documents(
                "d.id >= ? AND d.id < ?", (ref, ref + "\U0010ffff"), access, AMBIGUITY_SHOWN + 1
            )
        return _only(found, ref)

    def list_documents(self, access: Access) -> list[Document]:
        with self._lock, self._errors("documents"):
            return self._documents("1 = 1", (), access)

    def document_titles(self, doc_ids: Iterable[str], access: Access) -> dict[str, str]:
        ids = tuple(dict.fromkeys(doc_ids))
        if not ids:
            return {}
        visible = access_filter(access)
        marks = ", ".join("?" * len(ids))
        with self._lock, self._errors("documents"):
            rows = self._conn.execute(
                f"SELECT d.id, d.title FROM documents d WHERE d.id IN ({marks}) AND {visible.sql}",
                (*ids, *visible.params),
            )
            return {row[0]: row[1] for row in rows}

    def count_documents(
        self, access: Access, document_ids: Sequence[str] | None = None
    ) -> DocumentCounts:
        visible = access_filter(access)
        where: str = "1 = 1"
        params: tuple[object, ...] = ()
        if document_ids is not None:
            # one parameter however many ids: a knowledge base of thousands stays one query
            where = f"d.id IN ({self.dialect.json_strings})"
            params = (json.dumps(list(document_ids)),)
        with self._lock, self._errors("documents"):
            row = self._conn.execute(
                "SELECT count(*), coalesce(sum((SELECT count(*) FROM chunks k"
                " WHERE k.document_id = d.id)), 0)"
                f" FROM documents d WHERE ({where}) AND {visible.sql}",
                (*params, *visible.params),
            ).fetchone()
        return DocumentCounts(int(row[0]), int(row[1]))

    def blocks(self, doc_id: str, *, page: int | None = None) -> tuple[Block, ...]:
        where: str = "document_id = ?"
        params: tuple[object, ...] = (doc_id,)
        if page is not None:
            where, params = "document_id = ? AND page = ?", (doc_id, page)
        with self._lock, self._errors(doc_id):
            self._require(doc_id)
            rows = self._conn.execute(f"{SELECT_BLOCK} WHERE {where} ORDER BY ord", params)
            return tuple(block_from_row(row) for row in rows)

    def block(self, doc_id: str, block_id: str) -> Block:
        with self._lock, self._errors(doc_id):
            row = self._conn.execute(
                f"{SELECT_BLOCK} WHERE document_id = ? AND id = ?", (doc_id, block_id)
            ).fetchone()
        if row is None:
            raise NotFound(f"no block {block_id}", source=doc_id)
        return block_from_row(row)

    def chunks(self, doc_id: str) -> tuple[Chunk, ...]:
        with self._lock, self._errors(doc_id):
            self._require(doc_id)
            rows = self._conn.execute(
                f"{CHUNKS.select} WHERE document_id = ? ORDER BY ord", (doc_id,)
            )
            return tuple(CHUNKS.value(row) for row in rows)

    def chunks_around(self, chunk_ids: Sequence[str]) -> tuple[Chunk, ...]:
        ids = sorted(set(chunk_ids))
        if not ids:
            return ()
        marks = ", ".join("?" * len(ids))
        picked = CHUNKS.selected("c")
        with self._lock, self._errors(ids[0]):
            rows = self._conn.execute(
                f"SELECT DISTINCT {picked} FROM chunks h JOIN chunks c"
                " ON c.document_id = h.document_id AND c.ord BETWEEN h.ord - 1 AND h.ord + 1"
                f" WHERE h.id IN ({marks}) ORDER BY c.document_id, c.ord",
                ids,
            )
            return tuple(CHUNKS.value(row) for row in rows)

    def opening_chunks(
        self, chunk_ids: Sequence[str], access: Access
    ) -> tuple[tuple[Chunk, str], ...]:
        ids = sorted(set(chunk_ids))
        if not ids:
            return ()
        visible = access_filter(access)
        marks = ", ".join("?" * len(ids))
        with self._lock, self._errors(ids[0]):
            rows = self._conn.execute(
                f"SELECT {CHUNKS.selected('k')}, d.title AS opened_title FROM chunks k"
                " JOIN documents d ON d.id = k.document_id"
                f" WHERE k.id IN ({marks}) AND k.ord = 0 AND {visible.sql} ORDER BY k.id",
                (*ids, *visible.params),
            )
            return tuple((CHUNKS.value(row), row["opened_title"]) for row in rows)

    def chunk(self, chunk_id: str) -> Chunk:
        with self._lock, self._errors(chunk_id):
            row = self._conn.execute(f"{CHUNKS.select} WHERE id = ?", (chunk_id,)).fetchone()
        if row is None:
            raise NotFound("no such chunk", source=chunk_id)
        return CHUNKS.value(row)

    def original_path(self, doc: Document) -> Path:
        return self._files.local_path(doc.content_hash)

    # -- helpers -----------------------------------------------------------------------

    def _documents(
        self, where: str, params: tuple[object, ...], access: Access, limit: int | None = None
    ) -> list[Document]:
        visible = access_filter(access)
        limited = "" if limit is None else f" LIMIT {int(limit)}"
        rows = self._conn.execute(
            f"{self.dialect.select_document} WHERE ({where}) AND {visible.sql}"
            f" ORDER BY d.created DESC, d.rowid DESC{limited}",
            (*params, *visible.params),
        )
        return [DOCUMENTS.value(row) for row in rows]

    def _has(self, doc_id: str) -> bool:
        row = self._conn.execute("SELECT 1 FROM documents WHERE id = ?", (doc_id,)).fetchone()
        return row is not None

    def _require(self, doc_id: str) -> None:
        if not self._has(doc_id):
            raise NotFound("no such document", source=doc_id)

    def _remove_if_unreferenced(self, content_hash: str) -> None:
        """After a failed add: drop the original unless some document uses it. Runs in its
        own write transaction so no concurrent add of the same bytes can slip in."""
        try:
            with self._errors(content_hash), self._transaction() as conn:
                if not _referenced(conn, content_hash):
                    self._files.remove(content_hash)
        except (StoreError, InputError):
            pass  # a leftover original is harmless; the add's own error is what matters


# -- permission filter -------------------------------------------------------------------


def access_filter(access: Access, document: str = "d.id") -> SqlFilter:
    """Who may see a document, as SQL over ``documents d`` (or the document id column
    ``document``): one of its access tokens (``access_tokens.document_tokens``) among the caller's
    (``Access.tokens``). Every document query appends this, so rows the caller may not see
    are never read, let alone returned."""
    if access.everything:
        return SqlFilter("1 = 1", ())
    tokens = access.tokens
    marks = ", ".join("?" for _ in tokens)
    sql = (
        "EXISTS (SELECT 1 FROM document_access a"
        f" WHERE a.document_id = {document} AND a.token IN ({marks}))"
    )
    return SqlFilter(sql, tokens)


# -- writing rows ------------------------------------------------------------------------

_INSERT_TAG = "INSERT INTO document_org_tags (document_id, tag, ord) VALUES (?, ?, ?)"
_INSERT_TOKEN = "INSERT INTO document_access (document_id, token) VALUES (?, ?)"


def check_stored(doc: StoredDocument, original: bytes) -> None:
    document = doc.document
    check_content_hash(document.content_hash, original)
    strays = {c.document_id for c in doc.chunks} - {document.id}
    if strays:
        raise InputError(
            f"chunks of another document ({', '.join(sorted(strays))})", source=document.id
        )


def insert_stored(conn: SqlConnection, doc: StoredDocument) -> None:
    """A document's rows with its access tokens, inside the caller's transaction."""
    document = doc.document
    _insert_rows(conn, doc)
    tags = tuple(dict.fromkeys(document.org_tags))
    _write_tokens(conn, document.id, document_tokens(document.owner, document.visibility, tags))


def _insert_rows(conn: SqlConnection, doc: StoredDocument) -> None:
    """The document's rows as every schema since the first has them (no access tokens)."""
    document = doc.document
    conn.execute(DOCUMENTS.insert, DOCUMENTS.row(document))
    tags = dict.fromkeys(document.org_tags)  # a tag given twice is one tag
    conn.executemany(_INSERT_TAG, ((document.id, tag, i) for i, tag in enumerate(tags)))
    conn.executemany(INSERT_BLOCK, (block_row(document.id, b) for b in doc.blocks))
    conn.executemany(CHUNKS.insert, (CHUNKS.row(c) for c in doc.chunks))


def _write_tokens(conn: SqlConnection, doc_id: str, tokens: Iterable[str]) -> None:
    conn.executemany(_INSERT_TOKEN, ((doc_id, token) for token in tokens))


def _delete_rows(conn: SqlConnection, doc_id: str, access: Access) -> str | None:
    """Delete the document's rows (its blocks, chunks and tags cascade); return its
    content hash when no other document keeps that original."""
    row = _owned(conn, doc_id, access)
    conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
    content_hash: str = row["content_hash"]
    return None if _referenced(conn, content_hash) else content_hash


def _owned(conn: SqlConnection, doc_id: str, access: Access, *, admins: bool = False) -> Row:
    """The document's owner and content hash, if ``access`` may change it: its owner,
    ``everything``, or (with ``admins``: a visibility change, never a delete) an admin of
    one of the orgs it is shared with (``Access.admin_of``; a private document is its
    owner's alone). Anyone else gets ``NotFound``, as for a document that is not there."""
    row: Row | None = conn.execute(
        "SELECT owner, content_hash FROM documents WHERE id = ?", (doc_id,)
    ).fetchone()
    if row is None or not (
        access.everything
        or row["owner"] == access.user
        or (admins and _administers(conn, doc_id, access))
    ):
        raise NotFound("no such document", source=doc_id)
    return row


def _administers(conn: SqlConnection, doc_id: str, access: Access) -> bool:
    if not access.admin_of:
        return False
    marks = ", ".join("?" for _ in access.admin_of)
    row = conn.execute(
        "SELECT 1 FROM document_org_tags t JOIN documents d ON d.id = t.document_id"
        f" WHERE t.document_id = ? AND d.visibility != 'private' AND t.tag IN ({marks}) LIMIT 1",
        (doc_id, *access.admin_of),
    ).fetchone()
    return row is not None


def _referenced(conn: SqlConnection, content_hash: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM documents WHERE content_hash = ? LIMIT 1", (content_hash,)
    ).fetchone()
    return row is not None


def _only(found: list[Document], ref: str) -> Document:
    if not found:
        raise NotFound("no such document", source=ref)
    if len(found) > 1:
        ids = ", ".join(d.id for d in found[:AMBIGUITY_SHOWN])
        more = ", ..." if len(found) > AMBIGUITY_SHOWN else ""
        raise InputError(f"ambiguous id prefix: matches {ids}{more}", source=ref)
    return found[0]
