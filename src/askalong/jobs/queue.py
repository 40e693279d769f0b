"""Claims, leases, heartbeats and the sweep, against the store (the source of truth).

A worker claims a pending job by a conditional update and holds it as a ``Lease``: every
progress report it writes renews the lease (a heartbeat), and a ticker renews it at least
every ``job_heartbeat`` seconds while a long step runs. A worker that died stops beating;
the sweep takes its job over once the heartbeat is ``job_stale`` seconds old, removes what
the attempt half wrote, and queues it again, or fails it after ``job_attempts`` claims.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from askalong.errors import AskAlongError
from askalong.settings import Settings
from askalong.store.jobs import JobStore
from askalong.values.jobs import Job, JobState

Clock = Callable[[], float]
# What removes an interrupted attempt's writes of a document (its chunks, index entries).
Cleaner = Callable[[str], None]


class LeaseLost(AskAlongError):
    """The job is no longer this worker's: swept after a stall, or its document removed."""


class JobQueue:
    """The store's jobs as one worker (``owner``) sees them."""

    def __init__(
        self, store: JobStore, settings: Settings, owner: str, clock: Clock = time.time
    ) -> None:
        self.store, self.settings, self.owner, self.clock = store, settings, owner, clock

    def lease_until(self, now: float) -> float:
        return now + self.settings.job_stale

    def claim(self) -> Lease | None:
        now = self.clock()
        job = self.store.claim_job(self.owner, now, self.lease_until(now))
        return None if job is None else Lease(self, job)

    def sweep(self, clean: Cleaner) -> list[Job]:
        """Re-queue (or fail) every job whose worker stopped beating; what each attempt
        half wrote is removed first, while this sweeper holds the job."""
        now = self.clock()
        cutoff = now - self.settings.job_stale
        stale = self.store.take_stale_jobs(cutoff, self.owner, now, self.lease_until(now))
        for job in stale:
            clean(job.document_id)
            reason = (
                f"its worker stopped (no heartbeat for {self.settings.job_stale:g} s,"
                f" ASKALONG_JOB_STALE) in {job.state}"
            )
            final = job.attempts >= self.settings.job_attempts
            if final:
                reason += f", {job.attempts} attempts (ASKALONG_JOB_ATTEMPTS)"
            self.store.release_job(job, self.owner, reason, final=final)
        return stale


class Lease:
    """A claimed job while this worker holds it; its progress writes are its heartbeats."""

    def __init__(self, queue: JobQueue, job: Job) -> None:
        self.queue, self.job = queue, job
        self._last: tuple[str, int, int] = (job.state, 0, 0)
        self._lost = False
        self._writing = threading.Lock()

    def beat(self, state: JobState, done: int, total: int) -> None:
        """Record progress and renew the lease; ``LeaseLost`` when it is gone."""
        self._write((state, done, total))

    def _write(self, progress: tuple[str, int, int]) -> None:
        with self._writing:
            if self._lost:
                raise LeaseLost("the job was taken from this worker", source=self.job.id)
            now = self.queue.clock()
            store, owner = self.queue.store, self.queue.owner
            if not store.beat_job(self.job, owner, progress, now, self.queue.lease_until(now)):
                self._lost = True
                raise LeaseLost("the job was taken from this worker", source=self.job.id)
            self._last = progress

    @contextmanager
    def ticking(self) -> Iterator[None]:
        """Beat every ``job_heartbeat`` seconds from a thread while the body runs (a parse
        of a big file reports nothing for a while)."""
        stop = threading.Event()
        interval = self.queue.settings.job_heartbeat

        def tick() -> None:
            while not stop.wait(interval):
                try:
                    self._write(self._last)
                except LeaseLost:
                    return  # the worker's next beat raises it where it can act on it

        ticker = threading.Thread(target=tick, name="askalong-heartbeat", daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()

    def finish(self) -> bool:
        return self.queue.store.finish_job(self.job, self.queue.owner)

    def put_back(self, reason: str) -> bool:
        """Hand the job back, pending again at once (its worker is stopping), rather than
        after ``job_stale``; a later beat of this lease raises ``LeaseLost``."""
        with self._writing:
            self._lost = True
            return self.queue.store.release_job(self.job, self.queue.owner, reason, final=False)

    def fail(self, error: str) -> bool:
        """Give the job up: pending again for another attempt, or failed for good after
        ``job_attempts`` claims, with ``error`` as the reason either way."""
        final = self.job.attempts >= self.queue.settings.job_attempts
        return self.queue.store.release_job(self.job, self.queue.owner, error, final=final)
