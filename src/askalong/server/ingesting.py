"""Adding a document on a request's behalf, for every route that takes one: a multipart
upload is read at once (parse outside the write lock, write under it, then the vectors,
each step's progress to a ``Sink`` when someone is watching); a finished resumable upload
is queued (``jobs/outbox``) for the worker, which the request then wakes and waits for."""

from __future__ import annotations

import time

from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import AddOutcome
from askalong.jobs.job import Job
from askalong.jobs.outbox import queue_upload
from askalong.parse.progress import Progress, Sink, Throttle
from askalong.server.deps import ServerState
from askalong.types import Access


def add_upload(
    state: ServerState, upload: Upload, access: Access, progress: Sink | None = None
) -> AddOutcome:
    """Parse outside the write lock (the guard serialises parses itself); lock the writes."""
    ingestor = state.library.ingestor
    return ingestor.add_upload(upload, access, writes=state.writes, progress=progress)


def embed_pending(state: ServerState, progress: Sink | None = None) -> None:
    """Fill in the vectors still missing; a failure leaves keyword search working.
    ``progress`` receives the chunks given vectors so far, throttled."""
    with state.writes:
        indexes = state.library.indexes
        pending = indexes.pending_vectors()
        if not pending:
            return
        if progress is None:
            indexes.embed(pending)
            return
        total = sum(len(state.library.store.chunks(d.id)) for d in pending)
        throttled = Throttle(progress)
        throttled(Progress("vectors", 0, total))
        indexes.embed(pending, progress=lambda done: throttled(Progress("vectors", done, total)))
        throttled(Progress("vectors", total, total))


def queue_document(state: ServerState, upload: Upload, access: Access) -> AddOutcome:
    """The document row and its job in one transaction; the worker is told at once."""
    library = state.library
    outcome = queue_upload(library.ingestor, library.store, upload, access)
    if state.worker is not None:
        state.worker.wake()
    return outcome


def await_job(state: ServerState, document_id: str, poll: float = 0.1) -> Job | None:
    """The document's job once the server's worker finished it (ready or failed); as it
    is now when no worker runs here (``askalong worker`` does it) or after the parse
    time limit twice over."""
    store = state.library.store
    deadline = time.monotonic() + 2 * state.library.settings.parse_timeout
    job = store.job_of(document_id)
    while state.worker is not None and job is not None and not job.finished:
        if time.monotonic() > deadline:
            break
        time.sleep(poll)
        job = store.job_of(document_id)
    return job
