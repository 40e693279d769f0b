"""What every aggregate's SQL runs on, whichever the backend: ``SqlDatabase``.

The aggregates' classes (``SqlDocuments``, ``SqlThreads``, ...) hold the SQL both backends
share, written in the subset SQLite and PostgreSQL agree on, with ``?`` marks; a backend
(``store/sqlite/connection.py``, ``store/postgres/database.py``) supplies the connection, the
transaction and the few fragments they spell differently (``Dialect``). Rows read by
index and by column name (``row[0]``, ``row["id"]``) on both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol, Self

# A row of either driver: a tuple whose columns are also found by name.
Row = Any


class SqlCursor(Protocol):
    """What a statement returns: its rows, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Row: ...

    def fetchall(self) -> list[Row]: ...

    def __iter__(self) -> Iterator[Row]: ...


class SqlConnection(Protocol):
    """One connection, as the shared SQL uses it (``sqlite3.Connection`` is one)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> SqlCursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> SqlCursor: ...


@dataclass(frozen=True)
class Dialect:
    """The SQL the two backends spell differently, as fragments the shared SQL splices in."""

    # A document ``d`` with its org tags as one JSON array text, ``org_tags``, in their order.
    select_document: str
    # The strings of one JSON array parameter (a list of ids), as a one-column SELECT.
    json_strings: str
    # The name a block ``b`` defines (its section path's last part), spelled as the
    # expression index ``blocks_by_symbol`` is, so that the lookup searches that index.
    block_symbol: str
    # Appended to the SELECT that picks a job to claim: skip rows another claim holds.
    skip_locked: str = ""


class SqlDatabase:
    """The backend's side: a lock around using the connection, the connection itself,
    write transactions and the translation of the driver's errors.

    ``with self._lock:`` makes ``self._conn`` this caller's own until the block ends (a
    re-entrant lock on SQLite's one connection; a connection from the pool on PostgreSQL).
    ``self._transaction()`` is one write transaction on that connection, all or nothing;
    ``exclusive`` (the default) also keeps every other exclusive write out meanwhile, as
    SQLite's every write is: what the shared SQL reads before it writes stays true until
    it commits. A write of one conditional statement or upsert, safe beside any other,
    passes ``exclusive=False`` (workers' leases, request counts) so that PostgreSQL runs
    it beside other writes; ``durable=False`` lets a write that may be lost to a power cut
    (a request count) skip waiting for the disk.
    """

    dialect: Dialect
    _lock: AbstractContextManager[Any]

    @property
    def _conn(self) -> SqlConnection:
        raise NotImplementedError

    def _transaction(
        self, *, exclusive: bool = True, durable: bool = True
    ) -> AbstractContextManager[SqlConnection]:
        raise NotImplementedError

    def _errors(self, source: str) -> AbstractContextManager[None]:
        """Translate the driver's errors into ``StoreError`` naming ``source``."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
