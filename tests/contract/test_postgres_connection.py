"""The PostgreSQL pool (``store/postgres/connection.py``) against the test server."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from askalong.errors import StoreError
from askalong.store.postgres.connection import open_pool, pg_errors, redact

# PostgreSQL only: make test runs it, make check (SQLite's contract) leaves it out.
pytestmark = pytest.mark.slow


def test_the_pool_gives_autocommit_connections(postgres_url: str) -> None:
    with open_pool(postgres_url) as pool, pool.connection() as conn:
        assert conn.autocommit
        assert conn.execute("SELECT 1 + 1").fetchone() == (2,)


def test_an_unreachable_server_is_a_store_error_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://someone:secret@/nothing?host={tmp_path}&connect_timeout=1"
    with pytest.raises(StoreError) as raised:
        open_pool(url, timeout=0.5)
    assert "secret" not in str(raised.value)
    assert "someone:***@" in str(raised.value)


def test_redact_keeps_a_url_without_a_password() -> None:
    assert redact("postgresql://me@db:5432/askalong") == "postgresql://me@db:5432/askalong"
    assert redact("postgresql://me:pw@db:5432/a") == "postgresql://me:***@db:5432/a"


def test_driver_errors_become_store_errors(postgres_url: str) -> None:
    with (
        open_pool(postgres_url) as pool,
        pool.connection() as conn,
        pytest.raises(StoreError, match="no_such_table"),
        pg_errors("probe"),
    ):
        conn.execute("SELECT * FROM no_such_table")


def test_a_connection_the_server_dropped_is_replaced_not_failed(postgres_url: str) -> None:
    """A server restart or fail-over ends every connection: the next use gets a new one."""
    with open_pool(postgres_url) as pool:
        with pool.connection() as conn:
            before = conn.execute("SELECT pg_backend_pid()").fetchone()
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", before)
        with pool.connection() as conn:
            assert conn.execute("SELECT pg_backend_pid()").fetchone() != before
