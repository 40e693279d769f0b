"""Keyword writes gathered into few commits while a thread ingests a run of documents.

A tantivy commit costs far more than the documents in it: it writes a segment, syncs it,
and the merges it sets off rewrite older segments (issue 28: one commit per page of the
PostgreSQL manual wrote ~200x the final index to disk). A thread that adds document after
document (``askalong add FOLDER``, a worker's run of jobs) opens a ``batch``: its writes
wait here, keyed by document, and go in one commit once ``documents`` of them wait, or
``seconds`` after the first (a timer), or when the batch ends; searchable within seconds.

Only the batching thread's writes wait. Any other write (a removal, a visibility change
from a request) commits at once and takes the waiting ones with it, first, so their order
is kept. A crash loses the waiting writes, never the store's rows: the next ``sync``
indexes what the store has and the index lacks (and a worker finishes a job only once its
entries are committed, so a crashed job is swept and run again).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress

from askalong.errors import AskAlongError
from askalong.types import Chunk, Document

# A commit per 500 documents or 5 s: the manual's 1,174 pages in a handful of commits,
# while a document waits seconds, not minutes, to be searchable.
BATCH_DOCUMENTS = 500
BATCH_SECONDS = 5.0

# What a document's entries become at the next commit: replaced by these chunks, or
# (None) removed.
Entry = tuple[Document, Sequence[Chunk]] | None


class PendingWrites:
    """The writes waiting for the next commit; ``flush`` commits them (the index's)."""

    def __init__(
        self,
        flush: Callable[[], None],
        *,
        documents: int = BATCH_DOCUMENTS,
        seconds: float = BATCH_SECONDS,
    ) -> None:
        self._flush = flush
        self.documents, self.seconds = documents, seconds
        self._entries: dict[str, Entry] = {}
        self._guard = threading.Lock()
        self._local = threading.local()  # the batch depth of each thread
        self._timer: threading.Timer | None = None

    @contextmanager
    def batch(self) -> Iterator[None]:
        """This thread's writes wait for a commit of many; what waits is committed at the end."""
        self._local.depth = self._depth() + 1
        try:
            yield
        finally:
            self._local.depth -= 1
            if not self._local.depth:
                self._flush()

    def batching(self) -> bool:
        """Whether this thread's writes wait."""
        return self._depth() > 0

    def _depth(self) -> int:
        return int(getattr(self._local, "depth", 0))

    def write(self, entries: dict[str, Entry], commit: Callable[[dict[str, Entry]], None]) -> None:
        """``entries`` committed now by ``commit`` (which takes what waits first), or, in
        this thread's batch, left waiting until ``documents`` wait."""
        if not self.batching():
            if entries or self.waiting():
                commit(entries)
            return
        due = False
        for document_id, entry in entries.items():
            due = self.put(document_id, entry)
        if due:
            self._flush()

    @contextmanager
    def taken(self) -> Iterator[dict[str, Entry]]:
        """Everything waiting, the caller's to commit; it waits again if the commit fails."""
        waiting = self.take()
        try:
            yield waiting
        except BaseException:
            self.give_back(waiting)
            raise

    def put(self, document_id: str, entry: Entry) -> bool:
        """Let ``entry`` wait (replacing what waited for the document); True when a
        commit is due (``documents`` wait)."""
        with self._guard:
            self._entries[document_id] = entry
            self._arm()
            return len(self._entries) >= self.documents

    def _arm(self) -> None:
        """Start the timer that commits ``seconds`` after the first write waits."""
        if self._timer is None:
            self._timer = threading.Timer(self.seconds, self._flush_quietly)
            self._timer.daemon = True
            self._timer.start()

    def take(self) -> dict[str, Entry]:
        """Everything waiting, now the caller's to commit."""
        with self._guard:
            taken, self._entries = self._entries, {}
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            return taken

    def give_back(self, taken: dict[str, Entry]) -> None:
        """A failed commit's entries wait again, behind any written since."""
        with self._guard:
            self._entries = {**taken, **self._entries}
            if self._entries:
                self._arm()

    def waiting(self) -> bool:
        with self._guard:
            return bool(self._entries)

    def _flush_quietly(self) -> None:
        # The timer's commit: a failure leaves the entries waiting for the next one (the
        # batch's end raises it where the ingest can report it).
        with suppress(AskAlongError):
            self._flush()

    def close(self) -> None:
        """Stop the timer (the owner commits or drops what waits)."""
        with self._guard:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
