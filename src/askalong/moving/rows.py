"""Copying the rows of an embedded store (its SQLite file) into a target database, table
by table, in batches of one transaction each.

Every table has a primary key and each batch inserts only the rows the target lacks
(``ON CONFLICT DO NOTHING``), so a copy cut off anywhere is finished by running it again,
and running it again after it finished changes nothing. Tables come in an order where the
rows a row refers to (its foreign keys) are copied first. The source is read in one read
transaction: a consistent snapshot even if something writes to the home meanwhile.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from askalong.moving.targets import quoted

# Each store keeps the versions of its own schema; the target's are its own.
NOT_COPIED = frozenset({"schema_migrations"})

# Told after each batch: the table, rows of it copied so far, and its total.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    order: tuple[str, ...]  # the rows' order: as written (rowid), else the primary key's
    rows: int


class RowTarget(Protocol):
    """The database the rows go to, its schema already made (by opening its store)."""

    def columns(self, table: str) -> tuple[str, ...]:
        """The table's columns; empty when the target has no such table."""
        ...

    def insert_missing(self, table: str, columns: Sequence[str], rows: Sequence[tuple]) -> None:
        """Insert the rows whose key the table lacks, in one transaction."""
        ...

    def count(self, table: str) -> int: ...

    def finish(self) -> None:
        """After the copy: whatever explicit keys require (a sequence moved past them)."""
        ...


def open_source(path: Path) -> sqlite3.Connection:
    """The embedded store's file, read-only, in one read transaction (a snapshot)."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    source.execute("BEGIN")
    return source


def source_tables(source: sqlite3.Connection) -> list[Table]:
    """The tables to copy, each after the tables its rows refer to."""
    names = [
        row[0]
        for row in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        if row[0] not in NOT_COPIED
    ]
    return [_table(source, name) for name in _referenced_first(source, names)]


def _table(source: sqlite3.Connection, name: str) -> Table:
    info = list(source.execute(f"PRAGMA table_info({quoted(name)})"))
    key = tuple(row[1] for row in sorted((r for r in info if r[5]), key=lambda r: r[5]))
    (rows,) = source.execute(f"SELECT count(*) FROM {quoted(name)}").fetchone()
    return Table(name, tuple(row[1] for row in info), _order(source, name, key), int(rows))


def _order(source: sqlite3.Connection, name: str, key: tuple[str, ...]) -> tuple[str, ...]:
    """``rowid`` (the order rows were written in: an org's parent before it, whatever
    their ids) unless the table has none (``WITHOUT ROWID``), then its key."""
    (sql,) = source.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return key if "WITHOUT ROWID" in sql.upper() else ("rowid",)


def _referenced_first(source: sqlite3.Connection, names: list[str]) -> list[str]:
    refers = {
        name: {
            row[2]
            for row in source.execute(f"PRAGMA foreign_key_list({quoted(name)})")
            if row[2] != name and row[2] in names
        }
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and refers[n] <= set(ordered)]
        if not ready:
            raise ValueError(f"foreign keys form a cycle among {sorted(set(names) - set(ordered))}")
        ordered.extend(ready)
    return ordered


def copy_table(
    source: sqlite3.Connection,
    target: RowTarget,
    table: Table,
    *,
    batch: int,
    progress: Progress | None = None,
) -> None:
    """Every row of ``table`` the target lacks, ``batch`` rows a transaction; the columns
    both sides have (a target column the source lacks takes its default)."""
    wanted = set(target.columns(table.name))
    if not wanted:
        raise ValueError(f"the target has no table {table.name}")
    columns = [c for c in table.columns if c in wanted]
    if target.count(table.name) >= table.rows:
        return  # done by an earlier run (the counts are checked at the end)
    done = 0
    for rows in _batches(source, table, columns, batch):
        target.insert_missing(table.name, columns, rows)
        done += len(rows)
        if progress is not None:
            progress(table.name, done, table.rows)


def _batches(
    source: sqlite3.Connection, table: Table, columns: Sequence[str], size: int
) -> Iterator[list[tuple]]:
    picked = ", ".join(quoted(c) for c in columns)
    order = ", ".join(table.order)
    cursor = source.execute(f"SELECT {picked} FROM {quoted(table.name)} ORDER BY {order}")
    while rows := cursor.fetchmany(size):
        yield rows
