"""``Job``: one document's ingestion as the store keeps it, and the names of its states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

JobState = Literal["pending", "parsing", "ocr", "embedding", "ready", "failed"]
JOB_STATES: tuple[JobState, ...] = get_args(JobState)
# The states in which a worker holds the job (its lease and heartbeat mean something).
RUNNING: tuple[JobState, ...] = ("parsing", "ocr", "embedding")
FINISHED: tuple[JobState, ...] = ("ready", "failed")
INGEST = "ingest"  # the one kind of job so far


@dataclass(frozen=True)
class Job:
    """A document's ingestion: ``state`` and its step's progress ``done`` of ``total``
    (pages parsed, pages read by OCR, chunks given vectors); ``lease_owner`` the worker
    holding it until ``lease_expires`` (Unix seconds), ``heartbeat`` its last sign of life;
    ``attempts`` how often a worker claimed it; ``error`` why the last attempt failed."""

    id: str
    document_id: str
    kind: str
    state: JobState
    done: int
    total: int
    lease_owner: str | None
    lease_expires: float | None
    heartbeat: float | None
    attempts: int
    idempotency_key: str
    error: str
    created: str
    updated: str

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    @property
    def step(self) -> str:
        """The state with its progress, as people read it: ``ocr 3/50``, ``ready``."""
        if self.state in RUNNING and self.total:
            return f"{self.state} {self.done}/{self.total}"
        if self.state == "failed" and self.error:
            return f"failed: {self.error}"
        return self.state


def idempotency_key(document_id: str) -> str:
    """One job per document, ever: queueing it again finds the one there."""
    return f"{INGEST}:{document_id}"
