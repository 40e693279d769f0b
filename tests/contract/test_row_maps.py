"""A value's SQL row is derived from its dataclass (store/sql/row_maps.py): a field added to
the dataclass flows into the INSERT, the row and the value read back, with only a migration
that adds its column, on SQLite and PostgreSQL alike; the store's maps name only the columns
their tables have."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest

from askalong.store.postgres.database import PgConnection
from askalong.store.sql.collections import COLLECTIONS
from askalong.store.sql.feedback import FEEDBACK
from askalong.store.sql.jobs import JOBS
from askalong.store.sql.orgs import ORGS
from askalong.store.sql.row_maps import Column, RowMap
from askalong.store.sql.rows import CHUNKS, DOCUMENTS, THREADS, TURNS
from askalong.store.sql.uploads import UPLOADS
from askalong.store.sql.users import TOKENS, USERS
from askalong.store.sqlite.migrate import apply_migrations, migrations
from askalong.types import Anchor, BlockSpan


@dataclass(frozen=True)
class Note:
    id: str
    order: int
    tags: tuple[str, ...]
    anchor: Anchor | None
    pinned: bool = False


@dataclass(frozen=True)
class NoteWithColour(Note):
    """``Note`` with one field added: the one edit, besides its migration."""

    colour: str = "yellow"


_TABLE = (
    "CREATE TABLE notes (id TEXT PRIMARY KEY, ord INTEGER, tags TEXT, anchor TEXT, pinned INTEGER)"
)
_ADD_COLOUR = "ALTER TABLE notes ADD COLUMN colour TEXT NOT NULL DEFAULT 'yellow'"  # the migration
_ORDER = {"order": Column("ord")}
NOTE = Note("n1", 3, ("a", "b"), Anchor("d1", "b1", 0, 4, "text", (BlockSpan("b1", 0, 4),)), True)


@pytest.fixture
def conn(backend: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A connection as the shared SQL uses it (``?`` marks, rows by name) to an empty
    database of either backend, holding the toy table."""
    if backend == "postgres":
        url = request.getfixturevalue("postgres_url")
        with psycopg.connect(url, autocommit=True) as pg:
            db = PgConnection(pg)
            db.execute(_TABLE)
            yield db
        return
    lite = sqlite3.connect(":memory:")
    lite.row_factory = sqlite3.Row
    lite.execute(_TABLE)
    yield lite
    lite.close()


def test_a_value_is_written_and_read_back_by_its_fields(conn: Any) -> None:
    notes = RowMap(Note, "notes", columns=_ORDER)
    conn.execute(notes.insert, notes.row(NOTE))
    stored = conn.execute("SELECT * FROM notes").fetchone()
    assert {column: stored[column] for column in notes.written} == {
        "id": "n1",
        "ord": 3,
        "tags": '["a","b"]',
        "anchor": '{"document_id":"d1","block_id":"b1","start":0,"end":4,'
        '"selected_text":"text","spans":[{"block_id":"b1","start":0,"end":4}]}',
        "pinned": 1,
    }
    assert notes.value(conn.execute(notes.select).fetchone()) == NOTE


def test_an_added_field_flows_through_with_only_its_migration(conn: Any) -> None:
    before = RowMap(Note, "notes", columns=_ORDER)
    conn.execute(before.insert, before.row(NOTE))
    conn.execute(_ADD_COLOUR)
    notes = RowMap(NoteWithColour, "notes", columns=_ORDER)
    assert notes.written == ("id", "ord", "tags", "anchor", "pinned", "colour")
    old = notes.value(conn.execute(f"{notes.select} WHERE id = 'n1'").fetchone())
    assert old.colour == "yellow" and old.tags == ("a", "b")  # the row stored before it
    blue = NoteWithColour("n2", 1, (), None, colour="blue")
    conn.execute(notes.insert, notes.row(blue))
    assert notes.value(conn.execute(f"{notes.select} WHERE id = 'n2'").fetchone()) == blue


def test_read_only_fields_are_not_written_and_extra_columns_are() -> None:
    counted = RowMap(Note, "notes", columns=_ORDER, read_only=frozenset({"pinned"}))
    assert "pinned" not in counted.written and "pinned" not in counted.selected()
    labelled = RowMap(Note, "notes", columns=_ORDER, extra={"first_tag": lambda n: n.tags[0]})
    assert labelled.written[-1] == "first_tag" and labelled.row(NOTE)[-1] == "a"
    assert labelled.selected("n").split(", ")[:2] == ["n.id", "n.ord"]


STORE_MAPS: list[RowMap[Any]] = [
    DOCUMENTS, CHUNKS, THREADS, TURNS, JOBS, USERS, TOKENS, ORGS, UPLOADS, FEEDBACK,
    COLLECTIONS,
]  # fmt: skip


@pytest.mark.parametrize("row_map", STORE_MAPS, ids=lambda m: m.table)
def test_the_store_maps_name_columns_their_table_has(row_map: RowMap[Any]) -> None:
    db = sqlite3.connect(":memory:")
    apply_migrations(db, migrations())
    columns = {row[1] for row in db.execute(f"PRAGMA table_info({row_map.table})")}
    db.close()
    assert set(row_map.written) <= columns and set(row_map.selected().split(", ")) <= columns
