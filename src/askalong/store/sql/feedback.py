"""Feedback in the SQL store: ``SqlFeedback`` (a ``FeedbackStore``) and its SQL.

A record is private to its owner, like a thread (``everything`` sees all: the admin
view). One record per owner and turn: saving again replaces rating, reason, triage and
time and keeps the first record's id, in one upsert.
"""

from __future__ import annotations

from dataclasses import replace

from askalong import wire
from askalong.errors import NotFound
from askalong.store.sql.database import SqlDatabase
from askalong.store.sql.row_maps import RowMap, to_json
from askalong.types import Access
from askalong.values.feedback import Feedback, FeedbackFilter, Triage

# The triage's label has a column of its own too, for the admin view's filter.
FEEDBACK = RowMap(
    Feedback, "feedback", extra={"triage_label": lambda f: f.triage.label if f.triage else None}
)
_UPSERT = (
    f"{FEEDBACK.insert}"
    " ON CONFLICT (owner, turn_id) DO UPDATE SET rating = excluded.rating,"
    " reason = excluded.reason, judged = excluded.judged, source = excluded.source,"
    " triage_label = excluded.triage_label, triage = excluded.triage,"
    " created = excluded.created"
    " RETURNING id"
)


class SqlFeedback(SqlDatabase):
    """``FeedbackStore`` over the shared connection."""

    def save_feedback(self, item: Feedback) -> Feedback:
        with self._lock, self._errors(item.turn_id), self._transaction() as conn:
            (kept,) = conn.execute(_UPSERT, FEEDBACK.row(item)).fetchone()
        return replace(item, id=kept)

    def get_feedback(self, feedback_id: str, access: Access) -> Feedback:
        mine = "" if access.everything else " AND owner = ?"
        params = (feedback_id,) if access.everything else (feedback_id, access.user)
        with self._lock, self._errors(feedback_id):
            row = self._conn.execute(f"{FEEDBACK.select} WHERE id = ?{mine}", params).fetchone()
        if row is None:
            raise NotFound("no such feedback", source=feedback_id)
        return FEEDBACK.value(row)

    def list_feedback(self, access: Access, where: FeedbackFilter | None = None) -> list[Feedback]:
        where = where or FeedbackFilter()
        clauses, params = filter_sql(access, where)
        sql = (
            f"{FEEDBACK.select} WHERE {' AND '.join(clauses)}"
            " ORDER BY created DESC, rowid DESC LIMIT ?"
        )
        with self._lock, self._errors("feedback"):
            rows = self._conn.execute(sql, (*params, where.limit)).fetchall()
        return [FEEDBACK.value(r) for r in rows]

    def set_triage(self, feedback_id: str, triage: Triage) -> None:
        value = to_json(wire.triage_json(triage))
        with self._lock, self._errors(feedback_id), self._transaction() as conn:
            conn.execute(
                "UPDATE feedback SET triage_label = ?, triage = ? WHERE id = ?",
                (triage.label, value, feedback_id),
            )


def filter_sql(access: Access, where: FeedbackFilter) -> tuple[list[str], list[object]]:
    """The WHERE clauses: the caller's own records unless ``everything``, then the filter's."""
    clauses: list[str] = ["1 = 1"]
    params: list[object] = []
    if not access.everything:
        clauses.append("owner = ?")
        params.append(access.user)
    pairs = (
        ("owner = ?", where.owner),
        ("triage_label = ?", where.label),
        ("rating = ?", where.rating),
        ("created >= ?", where.since),
        # a bare date ("2026-12-02") ends after that whole day
        ("created < ?", _after(where.until)),
    )
    for clause, value in pairs:
        if value is not None:
            clauses.append(clause)
            params.append(value)
    if where.with_reason:
        clauses.append("reason != ''")
    if where.by_hand:
        clauses.append("source != 'agent'")
    return clauses, params


def _after(until: str | None) -> str | None:
    if until is None:
        return None
    return f"{until}T99" if len(until) == 10 else f"{until}~"  # sorts after that day / time
