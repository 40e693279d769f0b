"""Ingestion jobs in the SQL store: ``SqlJobs`` (a ``JobStore``) and its SQL.

A job moves only by conditional updates: a claim takes a pending job whose not-before time
has passed (``rowcount`` says who won; PostgreSQL's ``FOR UPDATE SKIP LOCKED`` lets workers
on many machines each take a different one at once), every later write names the lease
owner, so a worker whose job was swept away from it changes nothing. Queueing writes the
document row and its job in one transaction (the outbox): a crash leaves both or neither.
The document's parsed content replaces whatever an earlier attempt left, in one
transaction too. Lease writes are single conditional statements: not exclusive.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from askalong.errors import NotFound
from askalong.store.sql.database import SqlConnection
from askalong.store.sql.documents import SqlDocuments, check_stored, insert_stored
from askalong.store.sql.row_maps import RowMap, to_json
from askalong.store.sql.rows import (
    CHUNKS,
    DOCUMENTS,
    INSERT_BLOCK,
    block_row,
)
from askalong.types import Document, StoredDocument
from askalong.values.jobs import FINISHED, RUNNING, Job, idempotency_key

JOBS = RowMap(Job, "jobs")
_RUNNING = "(" + ", ".join(f"'{state}'" for state in RUNNING) + ")"
_FINISHED = "(" + ", ".join(f"'{state}'" for state in FINISHED) + ")"
_INSERT_JOB = (
    "INSERT INTO jobs (id, document_id, idempotency_key, created, updated) VALUES (?, ?, ?, ?, ?)"
)
# The document's columns a parse sets (its owner, visibility and times stay).
_PARSED_COLUMNS = (
    "title", "format", "language", "page_count", "page_sizes", "ocr_pages", "notices",
    "unread_pages",
)  # fmt: skip
_PARSED = f"UPDATE documents SET {', '.join(f'{c} = ?' for c in _PARSED_COLUMNS)} WHERE id = ?"


class SqlJobs(SqlDocuments):
    """``JobStore`` over the shared connection. It extends the documents' class: queueing
    writes a document row, and a job's steps replace that document's content."""

    # -- queueing ----------------------------------------------------------------------

    def enqueue_document(self, document: Document, original: bytes) -> Job | None:
        """Store the document's row (no blocks yet), its original and its pending job, all
        or nothing; None when the document is already stored (it is never queued twice)."""
        stored = StoredDocument(document, (), ())
        check_stored(stored, original)
        with self._lock, self._errors(document.id):
            try:
                with self._transaction() as conn:
                    if self._has(document.id):
                        return None
                    self._files.save(document.content_hash, original)
                    insert_stored(conn, stored)
                    job_id = _insert_job(conn, document.id)
                    return _job(conn, job_id)
            except BaseException:
                self._remove_if_unreferenced(document.content_hash)
                raise

    def retry_job(self, document_id: str) -> Job:
        """Queue the document again: a finished job back to pending with its attempts reset,
        a document without a job given one; a job pending or running stays as it is."""
        with self._lock, self._errors(document_id), self._transaction() as conn:
            self._require(document_id)
            found = _job_of(conn, document_id)
            if found is None:
                return _job(conn, _insert_job(conn, document_id))
            conn.execute(
                "UPDATE jobs SET state = 'pending', attempts = 0, error = '', done = 0,"
                " total = 0, lease_owner = NULL, lease_expires = NULL, updated = ?"
                f" WHERE id = ? AND state IN {_FINISHED}",
                (_now(), found.id),
            )
            return _job(conn, found.id)

    # -- leases ------------------------------------------------------------------------

    def claim_job(self, owner: str, now: float, lease_until: float) -> Job | None:
        """Take the oldest claimable pending job for ``owner`` (attempts counted); None
        when there is none or another worker took it first."""
        with self._lock, self._errors("jobs"), self._transaction(exclusive=False) as conn:
            row = conn.execute(
                "SELECT id FROM jobs WHERE state = 'pending'"
                " AND (lease_expires IS NULL OR lease_expires <= ?)"
                f" ORDER BY created, rowid LIMIT 1{self.dialect.skip_locked}",
                (now,),
            ).fetchone()
            if row is None:
                return None
            taken = conn.execute(
                "UPDATE jobs SET state = 'parsing', lease_owner = ?, lease_expires = ?,"
                " heartbeat = ?, attempts = attempts + 1, done = 0, total = 0, updated = ?"
                " WHERE id = ? AND state = 'pending'"
                " AND (lease_expires IS NULL OR lease_expires <= ?)",
                (owner, lease_until, now, _now(), row[0], now),
            )
            return _job(conn, row[0]) if taken.rowcount == 1 else None

    def beat_job(
        self, job: Job, owner: str, progress: tuple[str, int, int], now: float, lease_until: float
    ) -> bool:
        """Record the job's (state, done, total) and renew the lease; False when ``owner``
        no longer holds it (it was swept), so the worker stops."""
        state, done, total = progress
        return self._update_job(
            "UPDATE jobs SET state = ?, done = ?, total = ?, heartbeat = ?, lease_expires = ?,"
            f" updated = ? WHERE id = ? AND lease_owner = ? AND state IN {_RUNNING}",
            (state, done, total, now, lease_until, _now(), job.id, owner),
        )

    def finish_job(self, job: Job, owner: str) -> bool:
        return self._update_job(
            "UPDATE jobs SET state = 'ready', error = '', lease_owner = NULL,"
            " lease_expires = NULL, done = total, updated = ?"
            f" WHERE id = ? AND lease_owner = ? AND state IN {_RUNNING}",
            (_now(), job.id, owner),
        )

    def release_job(
        self, job: Job, owner: str, error: str, *, final: bool, not_before: float | None = None
    ) -> bool:
        """Give the job up: ``failed`` with ``error`` when ``final``, else pending again
        (claimable from ``not_before``), the error kept for people to read."""
        return self._update_job(
            "UPDATE jobs SET state = ?, error = ?, lease_owner = NULL, lease_expires = ?,"
            f" updated = ? WHERE id = ? AND lease_owner = ? AND state IN {_RUNNING}",
            ("failed" if final else "pending", error, not_before, _now(), job.id, owner),
        )

    def take_stale_jobs(
        self, cutoff: float, owner: str, now: float, lease_until: float
    ) -> list[Job]:
        """Running jobs whose heartbeat is older than ``cutoff``, each taken over by
        ``owner`` (a conditional update: two sweepers never take one job)."""
        with self._lock, self._errors("jobs"), self._transaction(exclusive=False) as conn:
            ids = [
                row[0]
                for row in conn.execute(
                    f"SELECT id FROM jobs WHERE state IN {_RUNNING} AND heartbeat < ?", (cutoff,)
                )
            ]
            taken = []
            for job_id in ids:
                changed = conn.execute(
                    "UPDATE jobs SET lease_owner = ?, heartbeat = ?, lease_expires = ?"
                    f" WHERE id = ? AND state IN {_RUNNING} AND heartbeat < ?",
                    (owner, now, lease_until, job_id, cutoff),
                )
                if changed.rowcount == 1:
                    taken.append(_job(conn, job_id))
            return taken

    # -- the document's content --------------------------------------------------------

    def store_parsed(self, stored: StoredDocument) -> None:
        """Replace the document's head fields, blocks and chunks with ``stored``'s in one
        transaction: a second run of a step stores the same rows, never a second copy."""
        document = stored.document
        with self._lock, self._errors(document.id), self._transaction() as conn:
            self._require(document.id)
            _clear(conn, document.id)
            row = DOCUMENTS.named(document)  # the page geometry as the row holds it
            conn.execute(_PARSED, (*(row[c] for c in _PARSED_COLUMNS), document.id))
            conn.executemany(INSERT_BLOCK, (block_row(document.id, b) for b in stored.blocks))
            conn.executemany(CHUNKS.insert, (CHUNKS.row(c) for c in stored.chunks))

    def set_notices(self, document_id: str, notices: Sequence[str]) -> None:
        with self._lock, self._errors(document_id), self._transaction() as conn:
            conn.execute(
                "UPDATE documents SET notices = ? WHERE id = ?", (to_json(notices), document_id)
            )

    def clear_content(self, document_id: str) -> None:
        """Remove what an interrupted attempt wrote of the document: its blocks and chunks."""
        with self._lock, self._errors(document_id), self._transaction() as conn:
            _clear(conn, document_id)

    # -- reading -----------------------------------------------------------------------

    def job_of(self, document_id: str) -> Job | None:
        with self._lock, self._errors(document_id):
            return _job_of(self._conn, document_id)

    def jobs(self, document_ids: Sequence[str] | None = None) -> list[Job]:
        """Every job (or those of ``document_ids``), oldest first."""
        with self._lock, self._errors("jobs"):
            rows = self._conn.execute(f"{JOBS.select} ORDER BY created, rowid")
            found = [JOBS.value(row) for row in rows]
        if document_ids is None:
            return found
        wanted = set(document_ids)
        return [job for job in found if job.document_id in wanted]

    def _update_job(self, sql: str, params: tuple[object, ...]) -> bool:
        with self._lock, self._errors("jobs"), self._transaction(exclusive=False) as conn:
            return conn.execute(sql, params).rowcount == 1


def _insert_job(conn: SqlConnection, document_id: str) -> str:
    job_id, now = uuid.uuid4().hex, _now()
    conn.execute(_INSERT_JOB, (job_id, document_id, idempotency_key(document_id), now, now))
    return job_id


def _clear(conn: SqlConnection, document_id: str) -> None:
    conn.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))
    conn.execute("DELETE FROM blocks WHERE document_id = ?", (document_id,))


def _job(conn: SqlConnection, job_id: str) -> Job:
    row = conn.execute(f"{JOBS.select} WHERE id = ?", (job_id,)).fetchone()
    if row is None:
        raise NotFound("no such job", source=job_id)
    return JOBS.value(row)


def _job_of(conn: SqlConnection, document_id: str) -> Job | None:
    row = conn.execute(f"{JOBS.select} WHERE document_id = ?", (document_id,)).fetchone()
    return None if row is None else JOBS.value(row)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
