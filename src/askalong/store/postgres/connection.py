"""Connections to a PostgreSQL server: the pool every part of server mode shares, and the
translation of the driver's errors into ``StoreError``.

``open_pool(url)`` is the one way in: the store and the search routes
(``askalong.index.pg_*``) take connections from the pool it returns. Its connections are
in autocommit mode, so a read never leaves a transaction open; a write opens one with
``conn.transaction()``. A connection is checked as it is taken from the pool (one round
trip), so one the server dropped (a restart, a fail-over) is replaced rather than failing
a request. The driver (psycopg 3) is the ``server`` extra.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

try:
    import psycopg
    from psycopg_pool import ConnectionPool, PoolTimeout
except ImportError as exc:  # an optional extra: say how to get it
    raise ImportError(
        "server mode (ASKALONG_DATABASE_URL=postgresql://...) needs psycopg:"
        " pip install 'askalong[server]'"
    ) from exc

from askalong.errors import DiskFull, StoreError

POOL_SIZE = 10  # connections per process: a server's request threads and its worker
CONNECT_TIMEOUT_S = 10.0
_DISK_FULL = "53100"  # SQLSTATE disk_full


def open_pool(
    url: str, *, max_size: int = POOL_SIZE, timeout: float = CONNECT_TIMEOUT_S
) -> ConnectionPool:
    """A pool of autocommit connections to ``url``, open and checked: a server that cannot
    be reached raises ``StoreError`` naming it (password left out) now, not at first use."""
    pool = ConnectionPool(
        url,
        min_size=1,
        max_size=max_size,
        kwargs={"autocommit": True},
        check=ConnectionPool.check_connection,
        open=False,
        name="askalong",
    )
    try:
        pool.open(wait=True, timeout=timeout)
    except PoolTimeout as exc:
        pool.close()
        raise StoreError(
            f"cannot connect to the database within {timeout:g} s", source=redact(url)
        ) from exc
    return pool


def redact(url: str) -> str:
    """``url`` with its password replaced by ``***``, fit for an error message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


@contextmanager
def pg_errors(source: str) -> Iterator[None]:
    """Translate the driver's errors into ``StoreError`` naming what was being done."""
    try:
        yield
    except psycopg.Error as exc:
        if exc.sqlstate == _DISK_FULL:
            raise DiskFull.of(source) from exc
        raise StoreError(f"database error: {exc}", source=source) from exc
