"""One SQLite connection shared by every aggregate of the embedded store.

One connection per store, guarded by a lock so a thread pool may share it; other
processes (the CLI while the server runs) get their own connections, and WAL lets their
readers go on while one of them writes. Every write is one ``BEGIN IMMEDIATE``
transaction, so every write is exclusive (``SqlDatabase``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from askalong.errors import DiskFull, StoreError
from askalong.files.disk import is_disk_full
from askalong.store.sql.database import Dialect, SqlDatabase
from askalong.store.sqlite.migrate import apply_migrations, migrations

BUSY_TIMEOUT_MS = 10_000

SQLITE = Dialect(
    # Org tags come back in the order they were given, as one JSON array per document.
    select_document=(
        "SELECT d.*, (SELECT json_group_array(tag) FROM (SELECT tag FROM document_org_tags t"
        " WHERE t.document_id = d.id ORDER BY t.ord)) AS org_tags FROM documents d"
    ),
    json_strings="SELECT value FROM json_each(?)",
    block_symbol="json_extract(b.section_path, '$[#-1]')",
)


class SQLiteDatabase(SqlDatabase):
    """The open, migrated file: the lock, the transaction and the lifetime that each
    aggregate's class (``SqlDocuments``, ``SqlThreads``) builds on."""

    dialect = SQLITE

    def __init__(self, path: Path, *, trace: Callable[[str], None] | None = None) -> None:
        """Open (creating if needed) and migrate; ``trace`` receives every SQL statement run."""
        self.path = path
        self._lock = threading.RLock()
        with store_errors(str(path)):
            self._connection = _connect(path)
            try:
                self._connection.set_trace_callback(trace)
                apply_migrations(self._connection, migrations())
            except BaseException:
                self._connection.close()
                raise

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._connection

    def _errors(self, source: str) -> AbstractContextManager[None]:
        return store_errors(source)

    @contextmanager
    def _transaction(
        self, *, exclusive: bool = True, durable: bool = True
    ) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` takes the write lock up front, so a write never fails
        half-way on a lock upgrade (every write is ``exclusive``); any exception rolls
        everything back."""
        with self._synchronous(durable):
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                if is_disk_full(exc):
                    self._shrink_wal()
                    raise DiskFull.of(str(self.path)) from exc
                raise

    @contextmanager
    def _synchronous(self, durable: bool) -> Iterator[None]:
        """A write that need not be durable commits without the fsync that makes every
        other one so (WAL stays consistent either way); the setting is the connection's,
        put back before the caller lets go of the lock."""
        if durable:
            yield
            return
        before = self._conn.execute("PRAGMA synchronous").fetchone()[0]
        self._conn.execute("PRAGMA synchronous = NORMAL")
        try:
            yield
        finally:
            self._conn.execute(f"PRAGMA synchronous = {int(before)}")

    def _shrink_wal(self) -> None:
        """After a write that found the disk full: the rolled-back transaction's pages may
        still fill the write-ahead log (27 MB once, which then failed the next upload), so
        the log is checkpointed and cut to nothing; best effort, the disk being full."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock, store_errors(str(self.path)):
            self._conn.close()


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, the module never does.
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    _use_wal(conn)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _use_wal(conn: sqlite3.Connection, attempts: int = 40) -> None:
    """Switch to WAL. Several connections opening a new file at once can see SQLITE_BUSY
    here without the busy handler being consulted, so the switch is retried briefly."""
    for attempt in range(attempts):
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05)


@contextmanager
def store_errors(source: str) -> Iterator[None]:
    """Translate the driver's errors into ``StoreError`` naming what was being done."""
    try:
        yield
    except sqlite3.Error as exc:
        if is_disk_full(exc):
            raise DiskFull.of(source) from exc
        raise StoreError(f"database error: {exc}", source=source) from exc
