"""Threads and turns in the SQL store: ``SqlThreads`` (a ``ThreadStore``) and its SQL."""

from __future__ import annotations

from dataclasses import replace

from askalong.errors import InputError, NotFound
from askalong.store.sql.database import SqlConnection, SqlDatabase
from askalong.store.sql.rows import SELECT_THREAD, THREADS, TURNS
from askalong.types import Access
from askalong.values.threads import Thread, Turn


class SqlThreads(SqlDatabase):
    """``ThreadStore`` over the shared connection; threads are private to their owner."""

    def save_turn(self, thread: Thread, turn: Turn) -> None:
        # an upsert and an insert: safe beside any other write
        with self._lock, self._errors(thread.id), self._transaction(exclusive=False) as conn:
            insert_turn(conn, thread, turn)

    def get_thread(self, thread_id: str, access: Access) -> Thread:
        with self._lock, self._errors(thread_id):
            found = select_threads(self._conn, "t.id = ?", (thread_id,), access)
        if not found:
            raise NotFound("no such thread", source=thread_id)
        return found[0]

    def list_threads(self, access: Access, *, document_id: str | None = None) -> list[Thread]:
        where, params = (
            ("1 = 1", ()) if document_id is None else ("t.document_id = ?", (document_id,))
        )
        with self._lock, self._errors("threads"):
            return select_threads(self._conn, where, params, access)

    def turns(self, thread_id: str) -> tuple[Turn, ...]:
        with self._lock, self._errors(thread_id):
            return select_turns(self._conn, thread_id)

    def rename_thread(self, thread_id: str, title: str, access: Access) -> Thread:
        name = title.strip()
        if not name:
            raise InputError("a thread's title cannot be blank", source="title")
        with self._lock, self._errors(thread_id), self._transaction() as conn:
            if not select_threads(conn, "t.id = ?", (thread_id,), access):
                raise NotFound("no such thread", source=thread_id)
            conn.execute("UPDATE threads SET title = ? WHERE id = ?", (name, thread_id))
            (renamed,) = select_threads(conn, "t.id = ?", (thread_id,), access)
        return renamed

    def delete_thread(self, thread_id: str, access: Access) -> None:
        with self._lock, self._errors(thread_id), self._transaction() as conn:
            if not select_threads(conn, "t.id = ?", (thread_id,), access):
                raise NotFound("no such thread", source=thread_id)
            conn.execute("DELETE FROM threads WHERE id = ?", (thread_id,))  # turns cascade


def insert_turn(conn: SqlConnection, thread: Thread, turn: Turn) -> None:
    """The thread (created on its first turn, else its ``updated`` moved on) and the turn."""
    conn.execute(
        f"{THREADS.insert} ON CONFLICT (id) DO UPDATE SET updated = excluded.updated",
        THREADS.row(replace(thread, updated=turn.created)),
    )
    conn.execute(TURNS.insert, TURNS.row(turn))


def select_threads(
    conn: SqlConnection, where: str, params: tuple[object, ...], access: Access
) -> list[Thread]:
    """Threads are private to their owner (``everything`` sees all)."""
    mine = "1 = 1" if access.everything else "t.owner = ?"
    owner = () if access.everything else (access.user,)
    rows = conn.execute(
        f"{SELECT_THREAD} WHERE ({where}) AND {mine} ORDER BY t.updated DESC, t.rowid DESC",
        (*params, *owner),
    )
    return [THREADS.value(row) for row in rows]


def select_turns(conn: SqlConnection, thread_id: str) -> tuple[Turn, ...]:
    rows = conn.execute(f"{TURNS.select} WHERE thread_id = ? ORDER BY ord", (thread_id,))
    return tuple(TURNS.value(row) for row in rows)
