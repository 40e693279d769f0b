"""The ingestion jobs' protocol (``askalong.jobs``): one of the aggregates ``Store``
joins (``askalong.store.base``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from askalong.types import Document, StoredDocument
from askalong.values.jobs import Job


class JobStore(Protocol):
    """Ingestion jobs (``jobs/``), one per document: queued in the same transaction as the
    document's row, then moved only by conditional updates naming the lease owner, so two
    workers never hold one job and a worker that lost its job writes nothing."""

    def enqueue_document(self, document: Document, original: bytes) -> Job | None:
        """The document's row (no blocks yet), original and pending job, all or nothing;
        None when the document is already stored."""
        ...

    def retry_job(self, document_id: str) -> Job:
        """A finished job pending again (attempts reset); a document with none given one."""
        ...

    def claim_job(self, owner: str, now: float, lease_until: float) -> Job | None: ...

    def beat_job(
        self, job: Job, owner: str, progress: tuple[str, int, int], now: float, lease_until: float
    ) -> bool:
        """Progress (state, done, total) and a renewed lease; False: ``owner`` lost it."""
        ...

    def finish_job(self, job: Job, owner: str) -> bool: ...

    def release_job(
        self, job: Job, owner: str, error: str, *, final: bool, not_before: float | None = None
    ) -> bool: ...

    def take_stale_jobs(
        self, cutoff: float, owner: str, now: float, lease_until: float
    ) -> list[Job]:
        """Running jobs with a heartbeat older than ``cutoff``, taken over by ``owner``."""
        ...

    def store_parsed(self, stored: StoredDocument) -> None:
        """Replace a stored document's head fields, blocks and chunks, all or nothing."""
        ...

    def set_notices(self, document_id: str, notices: Sequence[str]) -> None: ...

    def clear_content(self, document_id: str) -> None:
        """Remove the document's blocks and chunks (what an interrupted attempt wrote)."""
        ...

    def job_of(self, document_id: str) -> Job | None: ...

    def jobs(self, document_ids: Sequence[str] | None = None) -> list[Job]: ...
