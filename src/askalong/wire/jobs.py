"""The JSON form of a document's ingestion job (``jobs/``): its state, the step as people
read it (``ocr 3/50``), the step's progress, the claims so far and the last error."""

from __future__ import annotations

from typing_extensions import TypedDict

from askalong.values.jobs import Job, JobState


class JobJSON(TypedDict):
    state: JobState
    step: str
    done: int
    total: int
    attempts: int
    error: str


def job_json(job: Job) -> JobJSON:
    return {
        "state": job.state,
        "step": job.step,
        "done": job.done,
        "total": job.total,
        "attempts": job.attempts,
        "error": job.error,
    }
