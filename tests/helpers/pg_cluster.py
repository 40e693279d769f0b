"""A throwaway PostgreSQL 16 cluster with pgvector (the ``pgserver`` wheel) for the search
routes' tests and benchmarks: started once in a temporary folder, deleted when stopped."""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import pgserver
import pytest
from psycopg import Connection
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from support.postgres import PostgresServer


@contextmanager
def pg_cluster() -> Iterator[str]:
    """The URL of a fresh cluster, removed on exit."""
    folder = tempfile.mkdtemp(prefix="askalong-pg-")
    server = pgserver.get_server(folder, cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


@contextmanager
def fresh_database(url: str, name: str) -> Iterator[ConnectionPool[Connection[TupleRow]]]:
    """A pool on a new, empty database ``name`` of the cluster at ``url``."""
    with Connection.connect(url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    # Autocommit connections, as the store's pool hands out (store/postgres/connection.py).
    conninfo = _with_database(url, name)
    with ConnectionPool(conninfo, kwargs={"autocommit": True}, max_size=4, open=True) as pool:
        yield pool


def _with_database(url: str, name: str) -> str:
    head, _, query = url.partition("?")
    return f"{head.rsplit('/', 1)[0]}/{name}?{query}"


_databases = itertools.count()
# pytest-xdist's workers may share one server (ASKALONG_TEST_DATABASE_URL): names kept apart.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.fixture(scope="session")
def pg_url(postgres_server: PostgresServer) -> str:
    """The session's one PostgreSQL server (``support/postgres.py``), for the routes'
    own databases (``pg_pool``)."""
    return postgres_server.url


@contextmanager
def pg_pool(url: str) -> Iterator[ConnectionPool[Connection[TupleRow]]]:
    """A pool on a database of its own in the cluster at ``url``."""
    with fresh_database(url, f"routes_{_WORKER}_{next(_databases)}") as pool:
        yield pool
