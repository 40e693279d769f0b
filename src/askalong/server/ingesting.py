"""Adding a document on a request's behalf, for every route that takes one: a multipart
upload is read at once (parse outside the write lock, write under it, the parse's
progress to a ``Sink`` when someone is watching), and the server's background embedder
is woken for its vectors: a request never embeds, nor waits for an embedding; a finished
resumable upload is queued (``jobs/outbox``) for the worker, which the request then wakes
and waits for without a thread. A repository's ZIP or tar, either way, is unpacked and
its files added inline as one collection (``add_archive``)."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool

from askalong.errors import InputError
from askalong.ingest.archive import archive_stem, unpacked_upload
from askalong.ingest.inputs import Skipped, Upload, expand_inputs
from askalong.ingest.pipeline import AddOutcome
from askalong.jobs.outbox import queue_upload
from askalong.parse.progress import Sink
from askalong.server.deps import ServerState
from askalong.types import Access
from askalong.values.collections import Collection
from askalong.values.jobs import Job


def add_upload(
    state: ServerState, upload: Upload, access: Access, progress: Sink | None = None
) -> AddOutcome:
    """Parse outside the write lock (the guard serialises parses itself); lock the writes;
    the vectors are the background embedder's."""
    ingestor = state.library.ingestor
    outcome = ingestor.add_upload(upload, access, writes=state.writes, progress=progress)
    if outcome.status == "added":
        state.embedding.wake()
    return outcome


def queue_document(state: ServerState, upload: Upload, access: Access) -> AddOutcome:
    """The document row and its job in one transaction; the worker is told at once."""
    library = state.library
    outcome = queue_upload(library.ingestor, library.store, upload, access)
    job_queued(state)
    return outcome


def job_queued(state: ServerState) -> None:
    """Tell the workers a job waits: this server's own thread at once, those of other
    processes and machines through Redis (ASKALONG_REDIS_URL; else they poll)."""
    if state.worker is not None:
        state.worker.wake()
    state.library.wakeups.announce()


async def await_job(state: ServerState, document_id: str, poll: float = 0.1) -> Job | None:
    """The document's job once the server's worker finished it (ready or failed); as it
    is now when no worker runs here (``askalong worker`` does it) or after the parse
    time limit twice over. It waits on the event loop: no thread is held meanwhile."""
    store = state.library.store
    deadline = time.monotonic() + 2 * state.library.settings.parse_timeout
    job = await run_in_threadpool(store.job_of, document_id)
    while state.worker is not None and job is not None and not job.finished:
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(poll)
        job = await run_in_threadpool(store.job_of, document_id)
    return job


@dataclass(frozen=True)
class ArchiveAdded:
    """An uploaded repository archive: each file's outcome, the collection they joined
    (named after the archive), and the files the repository rules skipped, by reason."""

    outcomes: tuple[AddOutcome, ...]
    collection: Collection | None
    skipped: dict[str, int]


def add_archive(state: ServerState, upload: Upload, access: Access) -> ArchiveAdded:
    """A ZIP or tar of a repository, sent as one upload: unpacked as ``askalong add``
    unpacks one (``ingest/archive.py``; links and devices refused, since the sender is not
    the machine's user), its source and document files added as ``NAME/path`` for
    ``access``, one collection ``NAME`` (the archive's name without its ending)."""
    settings = state.library.settings
    with tempfile.TemporaryDirectory(prefix="askalong-upload-") as tmp:
        folder = unpacked_upload(
            upload.data, upload.name, Path(tmp), max_file_bytes=settings.max_file_bytes
        )
        outcomes, skipped = [], Counter[str]()
        for item in expand_inputs([str(folder)]):
            if isinstance(item, Skipped):
                skipped[item.counted or "unreadable"] += 1
                continue
            relative = Path(item).relative_to(folder).as_posix()
            data = Path(item).read_bytes()
            source = f"{upload.name}/{relative}"
            outcomes.append(_added(state, Upload(data, source, Path(item).name), access))
    ids = [o.document.id for o in outcomes if o.document is not None]
    if not ids:
        raise InputError("no source or document file in the archive", source=upload.name)
    with state.writes:
        collection = state.library.store.add_to_collection(archive_stem(upload.name), ids, access)
    state.embedding.wake()
    return ArchiveAdded(tuple(outcomes), collection, dict(sorted(skipped.items())))


def _added(state: ServerState, upload: Upload, access: Access) -> AddOutcome:
    """One file of an archive: a file that cannot be read is reported, the rest go in."""
    try:
        return state.library.ingestor.add_upload(upload, access, writes=state.writes)
    except InputError as exc:  # the file's own problem (format, damage, size, time)
        return AddOutcome(upload.source, "failed", error=str(exc))
