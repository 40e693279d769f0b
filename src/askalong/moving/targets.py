"""The databases rows are copied into (``rows.RowTarget``) over a DB-API connection: the
SQL is the one both SQLite and PostgreSQL speak (``INSERT … ON CONFLICT DO NOTHING``); what
differs is how a table's columns are listed, the parameter mark, and, on PostgreSQL, the
sequences of keys the copy wrote explicitly."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class DbApiRows:
    """``RowTarget`` over one DB-API connection in autocommit; each insert is one
    transaction of its own."""

    mark = "?"

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def columns(self, table: str) -> tuple[str, ...]:
        raise NotImplementedError

    def insert_missing(self, table: str, columns: Sequence[str], rows: Sequence[tuple]) -> None:
        names = ", ".join(quoted(c) for c in columns)
        marks = ", ".join([self.mark] * len(columns))
        sql = f"INSERT INTO {quoted(table)} ({names}) VALUES ({marks}) ON CONFLICT DO NOTHING"
        self.connection.execute("BEGIN")
        try:
            self.connection.cursor().executemany(sql, rows)
            self.connection.execute("COMMIT")
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise

    def count(self, table: str) -> int:
        (rows,) = self.connection.execute(f"SELECT count(*) FROM {quoted(table)}").fetchone()
        return int(rows)

    def finish(self) -> None:
        """Nothing by default: SQLite's keys need no sequence moved."""

    def close(self) -> None:
        self.connection.close()


class SQLiteRows(DbApiRows):
    """Another embedded store's file (its schema made by opening it as a store first)."""

    @classmethod
    def open(cls, path: Path) -> SQLiteRows:
        connection = sqlite3.connect(path, isolation_level=None)
        connection.execute("PRAGMA foreign_keys = ON")
        return cls(connection)

    def columns(self, table: str) -> tuple[str, ...]:
        return tuple(
            row[1] for row in self.connection.execute(f"PRAGMA table_info({quoted(table)})")
        )


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class PostgresRows(DbApiRows):
    """The PostgreSQL store's database (its schema made by opening it as a store first):
    the same tables and columns, ``%s`` marks; its ``rowid`` columns, which the source's
    column list does not name, number the copied rows in the order they come."""

    mark = "%s"

    @classmethod
    def open(cls, url: str) -> PostgresRows:
        import psycopg

        return cls(psycopg.connect(url, autocommit=True))

    def columns(self, table: str) -> tuple[str, ...]:
        rows = self.connection.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = %s"
            " ORDER BY ordinal_position",
            (table,),
        )
        return tuple(row[0] for row in rows)
