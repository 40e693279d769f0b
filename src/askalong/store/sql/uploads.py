"""Resumable uploads in the SQL store: ``SqlUploads`` (an ``UploadStore``) and its SQL.

An upload is private to its owner (``everything`` sees all); another caller's upload is
``NotFound``, as if it did not exist. The offset only ever moves by a conditional update
(``WHERE received = expected``) and the completion is claimed the same way, so two
requests racing over one upload cannot both win.
"""

from __future__ import annotations

from datetime import UTC, datetime

from askalong.errors import NotFound
from askalong.store.sql.database import SqlCursor, SqlDatabase
from askalong.store.sql.row_maps import RowMap
from askalong.types import Access
from askalong.values.uploads import ResumableUpload

UPLOADS = RowMap(ResumableUpload, "uploads")


class SqlUploads(SqlDatabase):
    """``UploadStore`` over the shared connection."""

    def create_upload(self, upload: ResumableUpload) -> None:
        with self._lock, self._errors(upload.name), self._transaction() as conn:
            conn.execute(UPLOADS.insert, UPLOADS.row(upload))

    def get_upload(self, upload_id: str, access: Access) -> ResumableUpload:
        with self._lock, self._errors(upload_id):
            row = self._conn.execute(f"{UPLOADS.select} WHERE id = ?", (upload_id,)).fetchone()
        if row is None or not (access.everything or row["owner"] == access.user):
            raise NotFound("no such upload", source=upload_id)
        return UPLOADS.value(row)

    def pending_uploads(self, owner: str) -> int:
        """How many of ``owner``'s uploads are still receiving bytes."""
        with self._lock, self._errors(owner):
            row = self._conn.execute(
                "SELECT count(*) FROM uploads WHERE owner = ? AND state = 'receiving'", (owner,)
            ).fetchone()
        return int(row[0])

    def advance_upload(self, upload_id: str, expected: int, received: int) -> bool:
        """Move the offset from ``expected`` to ``received``; False: it was not ``expected``
        (another request moved it first) or the upload no longer takes bytes."""
        return self._update(
            "UPDATE uploads SET received = ? WHERE id = ? AND received = ? AND state = 'receiving'",
            (received, upload_id, expected),
        )

    def claim_upload(self, upload_id: str) -> bool:
        """Mark a fully received upload complete; True for exactly one caller."""
        return self._update(
            "UPDATE uploads SET state = 'complete' WHERE id = ? AND state = 'receiving'"
            " AND received = length",
            (upload_id,),
        )

    def settle_upload(self, upload_id: str, document_id: str | None, error: str = "") -> None:
        """Record the outcome of a complete upload: its document, or why there is none."""
        state = "added" if document_id is not None else "failed"
        self._update(
            "UPDATE uploads SET state = ?, document_id = ?, error = ? WHERE id = ?",
            (state, document_id, error, upload_id),
        )

    def unsettled_uploads(self) -> list[ResumableUpload]:
        """Complete uploads whose document was never made (a server stopped meanwhile)."""
        with self._lock, self._errors("uploads"):
            rows = self._conn.execute(
                f"{UPLOADS.select} WHERE state = 'complete' ORDER BY created"
            ).fetchall()
        return [UPLOADS.value(row) for row in rows]

    def delete_upload(self, upload_id: str) -> bool:
        return self._update("DELETE FROM uploads WHERE id = ?", (upload_id,))

    def expired_uploads(self, now: datetime) -> list[str]:
        """Ids of uploads past their expiry that never completed."""
        with self._lock, self._errors("uploads"):
            rows = self._conn.execute(
                "SELECT id FROM uploads WHERE expires < ? AND state = 'receiving'",
                (stamp(now),),
            ).fetchall()
        return [row[0] for row in rows]

    def _update(self, sql: str, params: tuple[object, ...]) -> bool:
        # every update is one conditional statement: safe beside any other write
        with self._lock, self._errors("uploads"), self._transaction(exclusive=False) as conn:
            changed: SqlCursor = conn.execute(sql, params)
            return changed.rowcount == 1


def stamp(moment: datetime) -> str:
    """The store's time format (ISO 8601 in UTC, to the second), which sorts as text."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")
