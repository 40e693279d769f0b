"""PostgreSQL's numbered schema migrations (``store/postgres/migrations/NNNN_name.sql``),
applied once each, all in one transaction.

Every app server and worker migrates when it opens the store; a transaction-wide advisory
lock makes the first do it and the others wait, then find nothing left to do.
"""

from __future__ import annotations

from typing import Any

import psycopg

from askalong.store.sql.schema_versions import Migration, read_migrations, refuse_newer

MIGRATION_LOCK = 0x61736B_6D6967  # the advisory lock key migrations hold ("askmig")


def migrations() -> tuple[Migration, ...]:
    return read_migrations("askalong.store.postgres")


def apply_migrations(conn: psycopg.Connection[Any]) -> None:
    """Apply the migrations not yet recorded in ``schema_migrations``."""
    known = migrations()
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        refuse_newer(done, known)
        for migration in (m for m in known if m.version not in done):
            conn.execute(migration.sql.encode())  # no parameters: the whole file at once
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
