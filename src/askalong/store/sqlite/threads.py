"""The SQL of threads and turns for the SQLite store (one function per statement)."""

from __future__ import annotations

import sqlite3

from askalong.store.sqlite.rows import SELECT_THREAD, thread_from_row, turn_from_row, turn_row
from askalong.types import Access, Thread, Turn


def insert_turn(conn: sqlite3.Connection, thread: Thread, turn: Turn) -> None:
    """The thread (created on its first turn, else its ``updated`` moved on) and the turn."""
    conn.execute(
        "INSERT INTO threads (id, owner, title, document_id, created, updated)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET updated = excluded.updated",
        (thread.id, thread.owner, thread.title, thread.document_id, thread.created, turn.created),
    )
    conn.execute("INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?, ?, ?)", turn_row(turn))


def select_threads(
    conn: sqlite3.Connection, where: str, params: tuple[object, ...], access: Access
) -> list[Thread]:
    """Threads are private to their owner (``everything`` sees all)."""
    mine = "1 = 1" if access.everything else "t.owner = ?"
    owner = () if access.everything else (access.user,)
    rows = conn.execute(
        f"{SELECT_THREAD} WHERE ({where}) AND {mine} ORDER BY t.updated DESC, t.rowid DESC",
        (*params, *owner),
    )
    return [thread_from_row(row) for row in rows]


def select_turns(conn: sqlite3.Connection, thread_id: str) -> tuple[Turn, ...]:
    rows = conn.execute("SELECT * FROM turns WHERE thread_id = ? ORDER BY ord", (thread_id,))
    return tuple(turn_from_row(row) for row in rows)
