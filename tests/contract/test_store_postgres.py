"""What only the PostgreSQL store has: its own migrations, which must keep its tables the
SQLite store's (the two run the same SQL), applied once however many processes open a new
database at once; and writes that read before they write, run one at a time."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
import threading
from collections.abc import Callable

import psycopg
import pytest
from test_store import add, sample

from askalong.config import Settings
from askalong.errors import StoreError
from askalong.store.backends import open_store
from askalong.store.postgres.migrate import migrations
from askalong.store.postgres.store import PostgresStore
from askalong.types import Access

# PostgreSQL only: make test runs it, make check (SQLite's contract) leaves it out.
pytestmark = pytest.mark.slow

Columns = dict[str, list[str]]


def sqlite_columns(settings: Settings) -> Columns:
    open_store(settings).close()
    with contextlib.closing(sqlite3.connect(settings.database_path)) as conn:
        tables = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] != "schema_migrations"
        ]
        return {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in tables}


def postgres_columns(url: str) -> Columns:
    found: Columns = {}
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name != 'schema_migrations'"
            " ORDER BY table_name, ordinal_position"
        )
        for table, column in rows:
            if column != "rowid":  # what SQLite has without naming it
                found.setdefault(table, []).append(column)
    return found


def in_threads(count: int, work: Callable[[], None]) -> list[BaseException]:
    """Run ``work`` in ``count`` threads at once; the errors they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def run() -> None:
        try:
            start.wait()
            work()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_the_tables_are_the_sqlite_stores(settings: Settings, postgres_url: str) -> None:
    """A column added to one backend's migrations and not the other's fails here."""
    open_store(dataclasses.replace(settings, database_url=postgres_url)).close()
    assert postgres_columns(postgres_url) == sqlite_columns(settings)


def test_a_new_database_opened_at_once_is_migrated_once(
    settings: Settings, postgres_url: str
) -> None:
    server = dataclasses.replace(settings, database_url=postgres_url)
    assert in_threads(4, lambda: open_store(server).close()) == []
    with psycopg.connect(postgres_url) as conn:
        recorded = conn.execute("SELECT version, name FROM schema_migrations ORDER BY 1")
        assert recorded.fetchall() == [(m.version, m.name) for m in migrations()]


def test_a_newer_schema_is_refused(settings: Settings, postgres_url: str) -> None:
    server = dataclasses.replace(settings, database_url=postgres_url)
    open_store(server).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')")
    with pytest.raises(StoreError, match="newer"):
        open_store(server)


def test_one_document_added_at_once_by_two_servers_is_stored_once(
    backend_settings: Settings,
) -> None:
    """The check for an existing document and the insert are one exclusive write, as in
    SQLite: the second server finds the first's document, and neither fails."""
    item = sample("raced", visibility="public")
    with open_store(backend_settings) as first, open_store(backend_settings) as second:
        stores = iter([first, first, second, second])
        assert in_threads(4, lambda: add(next(stores), item)) == []
        assert [d.id for d in first.list_documents(Access.local())] == [item.id]


def test_the_store_shares_its_pool(settings: Settings, postgres_url: str) -> None:
    """The search routes take connections from the store's own pool."""
    with open_store(dataclasses.replace(settings, database_url=postgres_url)) as store:
        assert isinstance(store, PostgresStore)
        with store.pool.connection() as conn:
            assert conn.execute("SELECT count(*) FROM documents").fetchone() == (0,)
