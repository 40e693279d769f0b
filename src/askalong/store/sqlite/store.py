"""The embedded store: one SQLite file (WAL) beside a folder of original files.

One connection per store, guarded by a lock so a thread pool may share it; other
processes (the CLI while the server runs) get their own connections, and WAL lets their
readers go on while one of them writes. Every write is one ``BEGIN IMMEDIATE``
transaction, and the original file is written or set aside while that transaction holds
the write lock, so no other writer can interleave between the file and its rows.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from askalong.errors import InputError, NotFound, StoreError
from askalong.files.local import OriginalFiles, check_content_hash
from askalong.store.base import MIN_PREFIX, Store
from askalong.store.sqlite.migrate import apply_migrations, migrations
from askalong.store.sqlite.rows import (
    SELECT_BLOCK,
    SELECT_CHUNK,
    SELECT_DOCUMENT,
    block_from_row,
    block_row,
    chunk_from_row,
    chunk_row,
    document_from_row,
    document_row,
)
from askalong.store.sqlite.threads import insert_turn, select_threads, select_turns
from askalong.types import (
    Access,
    Block,
    Chunk,
    Document,
    StoredDocument,
    Thread,
    Turn,
)

BUSY_TIMEOUT_MS = 10_000
AMBIGUITY_SHOWN = 5  # how many matching ids an ambiguous-prefix error names


@dataclass(frozen=True)
class SqlFilter:
    """A WHERE fragment over ``documents d`` and the parameters its ``?`` marks take."""

    sql: str
    params: tuple[object, ...]


class SQLiteStore:
    """``Store`` over one SQLite file; see the module docstring for the concurrency model."""

    def __init__(
        self,
        path: Path,
        files: OriginalFiles,
        *,
        trace: Callable[[str], None] | None = None,
    ) -> None:
        """Open (creating if needed) and migrate; ``trace`` receives every SQL statement run."""
        self.path = path
        self._files = files
        self._lock = threading.RLock()
        with _errors(str(path)):
            self._conn = _connect(path)
            try:
                self._conn.set_trace_callback(trace)
                apply_migrations(self._conn, migrations())
            except BaseException:
                self._conn.close()
                raise

    # -- writing -----------------------------------------------------------------------

    def add_document(self, doc: StoredDocument, original: bytes) -> None:
        document = doc.document
        _check_stored(doc, original)
        with self._lock, _errors(document.id):
            if self._has(document.id):
                return
            try:
                with self._transaction() as conn:
                    if not self._has(document.id):  # another process may have just added it
                        self._files.save(document.content_hash, original)
                        _insert(conn, doc)
            except BaseException:
                self._remove_if_unreferenced(document.content_hash)
                raise

    def delete_document(self, doc_id: str, access: Access) -> None:
        with self._lock, _errors(doc_id):
            aside: Path | None = None
            try:
                with self._transaction() as conn:
                    unused = _delete_rows(conn, doc_id, access)
                    # Set the original aside while holding the write lock; commit makes it final.
                    aside = self._files.set_aside(unused) if unused else None
            except BaseException:
                if aside is not None:
                    self._files.put_back(aside)
                raise
            if aside is not None:
                self._files.discard(aside)

    # -- reading -----------------------------------------------------------------------

    def has_document(self, doc_id: str) -> bool:
        with self._lock, _errors(doc_id):
            return self._has(doc_id)

    def get_document(self, ref: str, access: Access) -> Document:
        with self._lock, _errors(ref):
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
        with self._lock, _errors("documents"):
            return self._documents("1 = 1", (), access)

    def blocks(self, doc_id: str, *, page: int | None = None) -> tuple[Block, ...]:
        where: str = "document_id = ?"
        params: tuple[object, ...] = (doc_id,)
        if page is not None:
            where, params = "document_id = ? AND page = ?", (doc_id, page)
        with self._lock, _errors(doc_id):
            self._require(doc_id)
            rows = self._conn.execute(f"{SELECT_BLOCK} WHERE {where} ORDER BY ord", params)
            return tuple(block_from_row(row) for row in rows)

    def block(self, doc_id: str, block_id: str) -> Block:
        with self._lock, _errors(doc_id):
            row = self._conn.execute(
                f"{SELECT_BLOCK} WHERE document_id = ? AND id = ?", (doc_id, block_id)
            ).fetchone()
        if row is None:
            raise NotFound(f"no block {block_id}", source=doc_id)
        return block_from_row(row)

    def chunks(self, doc_id: str) -> tuple[Chunk, ...]:
        with self._lock, _errors(doc_id):
            self._require(doc_id)
            rows = self._conn.execute(
                f"{SELECT_CHUNK} WHERE document_id = ? ORDER BY ord", (doc_id,)
            )
            return tuple(chunk_from_row(row) for row in rows)

    def chunk(self, chunk_id: str) -> Chunk:
        with self._lock, _errors(chunk_id):
            row = self._conn.execute(f"{SELECT_CHUNK} WHERE id = ?", (chunk_id,)).fetchone()
        if row is None:
            raise NotFound("no such chunk", source=chunk_id)
        return chunk_from_row(row)

    # -- threads -----------------------------------------------------------------------

    def save_turn(self, thread: Thread, turn: Turn) -> None:
        with self._lock, _errors(thread.id), self._transaction() as conn:
            insert_turn(conn, thread, turn)

    def get_thread(self, thread_id: str, access: Access) -> Thread:
        with self._lock, _errors(thread_id):
            found = select_threads(self._conn, "t.id = ?", (thread_id,), access)
        if not found:
            raise NotFound("no such thread", source=thread_id)
        return found[0]

    def list_threads(self, access: Access, *, document_id: str | None = None) -> list[Thread]:
        where, params = (
            ("1 = 1", ()) if document_id is None else ("t.document_id = ?", (document_id,))
        )
        with self._lock, _errors("threads"):
            return select_threads(self._conn, where, params, access)

    def turns(self, thread_id: str) -> tuple[Turn, ...]:
        with self._lock, _errors(thread_id):
            return select_turns(self._conn, thread_id)

    def delete_thread(self, thread_id: str, access: Access) -> None:
        with self._lock, _errors(thread_id), self._transaction() as conn:
            if not select_threads(conn, "t.id = ?", (thread_id,), access):
                raise NotFound("no such thread", source=thread_id)
            conn.execute("DELETE FROM threads WHERE id = ?", (thread_id,))  # turns cascade

    def original_path(self, doc: Document) -> Path:
        return self._files.path(doc.content_hash)

    # -- lifetime ----------------------------------------------------------------------

    def close(self) -> None:
        with self._lock, _errors(str(self.path)):
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- helpers -----------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` takes the write lock up front, so a write never fails
        half-way on a lock upgrade; any exception rolls everything back."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise

    def _documents(
        self, where: str, params: tuple[object, ...], access: Access, limit: int = -1
    ) -> list[Document]:
        visible = _access_filter(access)
        rows = self._conn.execute(
            f"{SELECT_DOCUMENT} WHERE ({where}) AND {visible.sql}"
            " ORDER BY d.created DESC, d.rowid DESC LIMIT ?",
            (*params, *visible.params, limit),
        )
        return [document_from_row(row) for row in rows]

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
            with self._transaction() as conn:
                if not _referenced(conn, content_hash):
                    self._files.remove(content_hash)
        except (sqlite3.Error, InputError):
            pass  # a leftover original is harmless; the add's own error is what matters


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, the module never does.
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


@contextmanager
def _errors(source: str) -> Iterator[None]:
    """Translate the driver's errors into ``StoreError`` naming what was being done."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"database error: {exc}", source=source) from exc


# -- permission filter -------------------------------------------------------------------


def _access_filter(access: Access) -> SqlFilter:
    """Who may see a document, as SQL over ``documents d``: public, or owned by the user,
    or shared with one of the user's orgs. Every document query appends this, so rows the
    caller may not see are never read, let alone returned."""
    if access.everything:
        return SqlFilter("1 = 1", ())
    if not access.orgs:
        return SqlFilter("(d.visibility = 'public' OR d.owner = ?)", (access.user,))
    marks = ", ".join("?" for _ in access.orgs)
    sql = (
        "(d.visibility = 'public' OR d.owner = ? OR (d.visibility = 'org' AND EXISTS"
        " (SELECT 1 FROM document_org_tags t"
        f" WHERE t.document_id = d.id AND t.tag IN ({marks}))))"
    )
    return SqlFilter(sql, (access.user, *access.orgs))


# -- writing rows ------------------------------------------------------------------------

_INSERT_DOCUMENT = (
    "INSERT INTO documents (id, content_hash, title, source, format, language, page_count,"
    " size_bytes, created, owner, visibility, page_sizes, ocr_pages, notices)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_TAG = "INSERT INTO document_org_tags (document_id, tag, ord) VALUES (?, ?, ?)"
_INSERT_BLOCK = (
    "INSERT INTO blocks (document_id, id, ord, kind, text, page, section_path, heading_level,"
    " boxes, line_start, line_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_CHUNK = (
    "INSERT INTO chunks (id, document_id, ord, text, spans, section_path, page_start, page_end)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _check_stored(doc: StoredDocument, original: bytes) -> None:
    document = doc.document
    check_content_hash(document.content_hash, original)
    strays = {c.document_id for c in doc.chunks} - {document.id}
    if strays:
        raise InputError(
            f"chunks of another document ({', '.join(sorted(strays))})", source=document.id
        )


def _insert(conn: sqlite3.Connection, doc: StoredDocument) -> None:
    document = doc.document
    conn.execute(_INSERT_DOCUMENT, document_row(document))
    tags = dict.fromkeys(document.org_tags)  # a tag given twice is one tag
    conn.executemany(_INSERT_TAG, ((document.id, tag, i) for i, tag in enumerate(tags)))
    conn.executemany(_INSERT_BLOCK, (block_row(document.id, b) for b in doc.blocks))
    conn.executemany(_INSERT_CHUNK, (chunk_row(c) for c in doc.chunks))


def _delete_rows(conn: sqlite3.Connection, doc_id: str, access: Access) -> str | None:
    """Delete the document's rows (its blocks, chunks and tags cascade); return its
    content hash when no other document keeps that original."""
    row = conn.execute(
        "SELECT owner, content_hash FROM documents WHERE id = ?", (doc_id,)
    ).fetchone()
    if row is None or not (access.everything or row["owner"] == access.user):
        raise NotFound("no such document", source=doc_id)
    conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
    content_hash: str = row["content_hash"]
    return None if _referenced(conn, content_hash) else content_hash


def _referenced(conn: sqlite3.Connection, content_hash: str) -> bool:
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


# -- rows <-> values ---------------------------------------------------------------------
