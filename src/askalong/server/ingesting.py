"""Adding a document on a request's behalf, for every route that takes one (a multipart
upload, a finished resumable upload): parse outside the write lock, write under it, then
the vectors, each step's progress to a ``Sink`` when someone is watching."""

from __future__ import annotations

from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import AddOutcome
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
