"""The PostgreSQL side of ``SqlDatabase``: pooled connections, transactions, the dialect.

``with self._lock:`` takes a connection from the pool for the calling thread (again on
re-entry: the same one) and gives it back when the outermost block ends, so every
aggregate's reads and writes within one call share one connection. An exclusive write
holds a transaction-wide advisory lock, ``WRITE_LOCK``: exclusive writes run one at a
time across every process, as SQLite's do, while the writes that need not be exclusive
(job leases, upload offsets, request counts) run beside them. The shared SQL's ``?``
marks become psycopg's ``%s``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from types import TracebackType
from typing import Any, ClassVar

import psycopg
from psycopg.rows import RowMaker
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from askalong.errors import StoreError
from askalong.store.postgres.connection import pg_errors
from askalong.store.sql.database import Dialect, SqlDatabase

WRITE_LOCK = 0x61736B_777269  # the advisory lock key exclusive writes hold ("askwri")
CHECKOUT_TIMEOUT_S = 30.0

POSTGRES = Dialect(
    select_document=(
        "SELECT d.*, coalesce((SELECT json_agg(t.tag ORDER BY t.ord) FROM document_org_tags t"
        " WHERE t.document_id = d.id)::text, '[]') AS org_tags FROM documents d"
    ),
    json_strings="SELECT jsonb_array_elements_text(CAST(? AS jsonb))",
    block_symbol="((b.section_path::jsonb) ->> -1)",
    skip_locked=" FOR UPDATE SKIP LOCKED",
)


class PostgresDatabase(SqlDatabase):
    """The pool, with each thread's connection while it holds ``_lock``."""

    dialect = POSTGRES

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._checkout = _Checkout(pool)
        self._lock = self._checkout

    @property
    def pool(self) -> ConnectionPool:
        """The store's pool, for what else in the process talks to the same database (the
        PostgreSQL search routes): one pool a process, not one per part."""
        return self._pool

    @property
    def _conn(self) -> PgConnection:
        return PgConnection(self._checkout.connection())

    def _errors(self, source: str) -> AbstractContextManager[None]:
        return pg_errors(source)

    @contextmanager
    def _transaction(
        self, *, exclusive: bool = True, durable: bool = True
    ) -> Iterator[PgConnection]:
        with self._checkout:
            conn = self._checkout.connection()
            with conn.transaction():
                if exclusive:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                if not durable:
                    conn.execute("SET LOCAL synchronous_commit = off")
                yield PgConnection(conn)

    def close(self) -> None:
        self._pool.close()


class _Checkout:
    """A re-entrant, per-thread hold on one pooled connection."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._local = threading.local()

    def __enter__(self) -> None:
        depth = getattr(self._local, "depth", 0)
        if depth == 0:
            try:
                self._local.conn = self._pool.getconn(timeout=CHECKOUT_TIMEOUT_S)
            except PoolClosed as exc:
                raise StoreError("the store is closed", source="database") from exc
            except PoolTimeout as exc:
                raise StoreError(
                    f"no database connection came free within {CHECKOUT_TIMEOUT_S:g} s",
                    source="database",
                ) from exc
        self._local.depth = depth + 1

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._local.depth -= 1
        if self._local.depth == 0:
            conn, self._local.conn = self._local.conn, None
            self._pool.putconn(conn)

    def connection(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None:
            raise RuntimeError("the store's connection is used outside its lock")
        return conn


class PgConnection:
    """A psycopg connection as the shared SQL uses it: ``?`` marks, rows by index and name."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        cursor = self._conn.cursor(row_factory=named_rows)
        return cursor.execute(to_pyformat(sql), tuple(parameters))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> psycopg.Cursor[Any]:
        cursor = self._conn.cursor(row_factory=named_rows)
        cursor.executemany(to_pyformat(sql), [tuple(row) for row in parameters])
        return cursor


@functools.lru_cache(maxsize=512)
def to_pyformat(sql: str) -> str:
    """The shared SQL's ``?`` marks as psycopg's ``%s`` (a literal ``%`` doubled); the
    shared SQL has no ``?`` inside a string literal."""
    return sql.replace("%", "%%").replace("?", "%s")


class NamedRow(tuple[Any, ...]):
    """A row read by index or by column name, as ``sqlite3.Row`` is."""

    __slots__ = ()
    names: ClassVar[dict[str, int]] = {}  # each result's own class sets its columns

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self.names[key])
        return super().__getitem__(key)


def named_rows(cursor: psycopg.Cursor[Any]) -> RowMaker[NamedRow]:
    """psycopg's row factory for ``NamedRow``: a class per set of columns, naming them."""
    return _row_class(tuple(column.name for column in cursor.description or ()))


@functools.lru_cache(maxsize=256)
def _row_class(columns: tuple[str, ...]) -> type[NamedRow]:
    names = {name: i for i, name in enumerate(columns)}
    return type("Row", (NamedRow,), {"names": names, "__slots__": ()})
