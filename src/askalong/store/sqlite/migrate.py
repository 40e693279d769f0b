"""Numbered schema migrations (``store/migrations/NNNN_name.sql``), applied once each."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

from askalong.errors import StoreError

_MIGRATION_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> tuple[Migration, ...]:
    """The numbered ``store/migrations/NNNN_name.sql`` files, in order."""
    folder = resources.files("askalong.store.sqlite").joinpath("migrations")
    found = [
        Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if (match := _MIGRATION_FILE.fullmatch(entry.name))
    ]
    return tuple(sorted(found, key=lambda m: m.version))


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
        _refuse_newer(done, known)
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


def _refuse_newer(done: set[int], known: tuple[Migration, ...]) -> None:
    unknown = done - {m.version for m in known}
    if unknown:
        raise StoreError(
            f"the database has schema version {max(unknown)}, newer than this AskAlong knows;"
            " upgrade AskAlong"
        )


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
