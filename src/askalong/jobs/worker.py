"""The worker loop: sweep now and then, claim a job, run its steps under the lease.

One loop per thread; ``askalong worker`` runs one or more in its own process, ``askalong
serve`` one in a thread (``WorkerThread``). A job's steps run in order (parse, OCR page by
page when pages are unread, embed), each reporting progress as heartbeats; a step's error
gives the job up (retried until ``job_attempts``), a lost lease just stops.
"""

from __future__ import annotations

import os
import socket
import threading
import uuid
from collections.abc import Callable

from askalong.errors import AskAlongError, NotFound
from askalong.jobs.finishing import Finishing
from askalong.jobs.queue import JobQueue, Lease, LeaseLost
from askalong.jobs.steps import JobSteps
from askalong.library import Library
from askalong.types import Access
from askalong.values.jobs import JobState
from askalong.wakeups import JobWakeups

Log = Callable[[str], None]


class WorkerStopping(AskAlongError):
    """The worker was asked to stop: the job goes back to pending between two batches."""


def worker_name() -> str:
    """Who holds a lease: host, process and a random tail (threads of one process differ)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Worker:
    """Runs the library's queued jobs until ``stop`` is set (or, ``once``, none is left)."""

    def __init__(
        self,
        library: Library,
        log: Log | None = None,
        *,
        sweeps: bool = True,
        queue: JobQueue | None = None,
    ) -> None:
        self.library = library
        self.queue = queue or JobQueue(library.store, library.settings, worker_name())
        self.log = log or (lambda line: None)
        self.sweeps = sweeps  # one loop per process sweeps; the others only work
        self._steps: JobSteps | None = None
        self.wakeup = threading.Event()  # set: look for work now (a job was just queued)
        # Announcements from other processes and machines (ASKALONG_REDIS_URL) set it too.
        self.wakeups = JobWakeups(library.settings.redis_url, self.log)
        self._stop = threading.Event()  # the running loop's stop, seen between batches
        self.held: Lease | None = None  # the job this loop runs now
        self.finishing = Finishing(library.indexes.keyword, self.log)

    @property
    def steps(self) -> JobSteps:
        if self._steps is None:  # starts the parser children on first use
            self._steps = JobSteps(self.library.settings, self.library.store, self.library.indexes)
        return self._steps

    def run(self, stop: threading.Event, *, once: bool = False) -> int:
        """The loop; returns how many jobs it finished (ready or failed). The sweep runs
        first, then every ``job_sweep`` seconds in a thread of its own, so a long job here
        never keeps another worker's dead job waiting."""
        self._stop = stop
        halt = threading.Event()  # ends the sweeper with the loop
        sweeper = threading.Thread(
            target=self._sweep_every, args=(halt,), name="askalong-sweep", daemon=True
        )
        if self.sweeps:
            self.sweep()
            sweeper.start()
        if not once:  # the listener, a daemon, ends within a second of ``halt``
            self.wakeups.listen(self.wakeup.set, halt)
        try:
            with self.library.indexes.keyword.batch():  # a commit per many jobs, not each
                return self._loop(stop, once)
        finally:
            self.finishing.settle()
            halt.set()
            if sweeper.is_alive():
                sweeper.join()

    def _loop(self, stop: threading.Event, once: bool) -> int:
        finished = 0
        while not stop.is_set():
            lease = self.queue.claim()
            if lease is None:
                finished += self.finishing.settle()  # idle: what is done goes ready now
                if once:
                    break
                self.wakeup.wait(self.library.settings.job_poll)
                self.wakeup.clear()
                continue
            finished += self.run_job(lease)
            if self.finishing.due():
                finished += self.finishing.settle()
        return finished

    def _sweep_every(self, stop: threading.Event) -> None:
        while not stop.wait(self.library.settings.job_sweep):
            try:
                self.sweep()
            except AskAlongError as exc:  # a busy store now; the next sweep tries again
                self.log(f"sweep failed: {exc}")

    def sweep(self) -> None:
        swept = self.queue.sweep(self._clean)
        for job in swept:
            self.log(f"{job.document_id}  re-queued: its worker stopped in {job.state}")
        if swept:
            self.wakeups.announce()

    def _clean(self, document_id: str) -> None:
        """What an interrupted attempt wrote: index entries and vectors, blocks and chunks."""
        self.library.indexes.remove(document_id)
        self.library.store.clear_content(document_id)

    def run_job(self, lease: Lease) -> int:
        """Run the claimed job's steps; 1 when it failed for good, 0 when it goes on
        elsewhere (lease lost, document removed, another attempt due) or waits in
        ``finishing`` for the keyword commit that makes it ready."""
        job = lease.job

        def beat(state: JobState, done: int, total: int) -> None:
            if self._stop.is_set():
                raise WorkerStopping("the worker is stopping", source=job.id)
            lease.beat(state, done, total)

        self.held = lease
        try:
            return self._run_steps(lease, beat)
        finally:
            self.held = None

    def put_back(self, reason: str) -> None:
        """The job at hand, if any, pending again now (not after the stale time): the
        process is going away without waiting for its step to end; the step, if it goes
        on, finds its lease gone and writes nothing more of the job's state."""
        lease = self.held
        if lease is not None and lease.put_back(reason):
            self.log(f"{lease.job.document_id}  put back: {reason}")
            self.wakeups.announce()

    def _run_steps(self, lease: Lease, beat: Callable[[JobState, int, int], None]) -> int:
        job = lease.job
        try:
            document = self.library.store.get_document(job.document_id, Access.local())
            self.log(f"{document.id}  parsing  {document.source}")
            with lease.ticking():
                document = self.steps.parse(document, beat)
                if document.unread_pages:
                    self.log(f"{document.id}  ocr  {len(document.unread_pages)} page(s)")
                    document = self.steps.ocr(document, beat)
                self.log(f"{document.id}  embedding")
                self.steps.embed(document, beat)
        except (LeaseLost, NotFound) as exc:
            self.log(f"{job.document_id}  stopped: {exc}")
            return 0
        except WorkerStopping as exc:  # pending again now, not after the stale time
            lease.put_back(str(exc))
            self.log(f"{job.document_id}  put back: {exc}")
            self.wakeups.announce()  # another machine's idle worker may take it
            return 0
        except AskAlongError as exc:
            lease.fail(str(exc))
            final = job.attempts >= self.library.settings.job_attempts
            self.log(f"{job.document_id}  {'failed' if final else 'will retry'}: {exc}")
            return int(final)
        chunks = len(self.library.store.chunks(document.id))
        self.finishing.add(lease, f"{document.id}  ready  ({chunks} chunks)")
        return 0

    def close(self) -> None:
        self.wakeups.close()
        if self._steps is not None:
            self._steps.close()


class WorkerThread:
    """A worker inside another process (``askalong serve``); ``stop`` lets the step at
    hand end, or after ``timeout`` gives its job back (pending again at once)."""

    def __init__(self, library: Library, log: Log | None = None) -> None:
        self.worker = Worker(library, log)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="askalong-worker", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Look for work now rather than at the next poll."""
        self.worker.wakeup.set()

    def _run(self) -> None:
        try:
            self.worker.run(self._stop)
        finally:
            self.worker.close()

    def stop(self, timeout: float = 30.0) -> bool:
        """Stop the loop; whether the thread ended within ``timeout`` (if not, its job
        was given back and the thread, a daemon, ends with the process)."""
        self._stop.set()
        self.wake()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if self._thread.is_alive():
            self.worker.put_back("the server stopped during this step")
        return not self._thread.is_alive()
