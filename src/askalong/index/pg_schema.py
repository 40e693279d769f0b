"""The SQL of the PostgreSQL search routes (``index/pg_sql/``), applied when a route opens.

Every statement is idempotent (``IF NOT EXISTS``), so applying a file again is harmless
and two processes may open the routes at once. A file may name tables in braces
(``{table}``), filled in as quoted identifiers, and ``{dimension}`` as a number.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import files

from psycopg import Connection, Error, sql
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from askalong.errors import StoreError

Database = Connection[TupleRow]  # a connection whose rows are tuples
Pool = ConnectionPool[Database]

# Concurrent first opens race on CREATE ... IF NOT EXISTS (a unique violation in the
# catalog); one advisory lock taken around the schema makes them queue instead.
_SCHEMA_LOCK = 0x61736B5F726F7574  # "ask_rout"


def apply_schema(connection: Database, name: str, *, dimension: int = 0, **tables: str) -> None:
    """Run ``pg_sql/<name>.sql`` with its table names (and dimension) filled in."""
    text = files("askalong.index.pg_sql").joinpath(f"{name}.sql").read_text(encoding="utf-8")
    names = {key: sql.Identifier(value) for key, value in tables.items()}
    statement = sql.SQL(text).format(dimension=sql.Literal(dimension), **names)
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        connection.execute(statement)


@contextmanager
def connected(pool: Pool) -> Iterator[Database]:
    """A connection of ``pool``; what goes wrong in PostgreSQL (a lost server, a dropped
    table, a full pool) raises ``StoreError``, as the local routes' failures do."""
    try:
        with pool.connection() as connection:
            yield connection
    except Error as exc:
        raise StoreError(f"search routes on PostgreSQL: {exc}", source="postgresql") from exc
