"""SQLite's numbered migrations (``migrations/NNNN_name.sql``), applied once each."""

from __future__ import annotations

import sqlite3

from askalong.errors import StoreError
from askalong.store.sql.schema_versions import Migration, read_migrations, refuse_newer


def migrations() -> tuple[Migration, ...]:
    """The numbered ``store/sqlite/migrations/NNNN_name.sql`` files, in order."""
    return read_migrations("askalong.store.sqlite")


def apply_migrations(conn: sqlite3.Connection, known: tuple[Migration, ...]) -> None:
    """Apply the migrations not yet recorded, all in one transaction.

    The applied set is read after taking the write lock, so two processes opening a new
    file at once apply each migration exactly once.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL) STRICT"
    )
    conn.execute("BEGIN IMMEDIATE")
    try:
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        refuse_newer(done, known)
        for migration in (m for m in known if m.version not in done):
            for statement in split_statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ'))",
                (migration.version, migration.name),
            )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def split_statements(script: str) -> list[str]:
    """Split a migration into statements (``execute`` runs one at a time, and
    ``executescript`` would commit our transaction)."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if _strip_comments(current):
        raise StoreError("unterminated statement at the end of a migration")
    return statements


def _strip_comments(sql: str) -> str:
    return "".join(line.split("--", 1)[0] for line in sql.splitlines()).strip()
