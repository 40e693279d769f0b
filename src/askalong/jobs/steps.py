"""A job's work, step by step: parse, OCR page by page, embed; each step idempotent.

``parse`` reads the stored original with no OCR budget (scanned pages stay unread) and
replaces the document's content in one transaction, so running it again stores the same
blocks and chunks, never a second copy. ``ocr`` reads the unread pages one per step through
the unread-pages mechanism (``ingest/pages``), which stores a page once however often it
is read: a 50-page scan is 50 short steps, never one call racing a time budget. ``embed``
gives vectors by content key, so a re-run reuses what is there. Each step reports its
progress to ``Beat``, which the worker turns into heartbeats.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from askalong.config import Settings
from askalong.errors import AskAlongError
from askalong.index.routes import StoreIndexes
from askalong.ingest.describe import describe_chunks, with_warnings
from askalong.ingest.pages import PageReading
from askalong.ingest.pipeline import settings_chunks, with_parsed
from askalong.parse.guard import ParserGuard
from askalong.parse.pdf.parser import is_unread_notice
from askalong.store.base import Store
from askalong.types import Access, Document, StoredDocument
from askalong.values.jobs import JobState

Beat = Callable[[JobState, int, int], None]


class JobFailed(AskAlongError):
    """A step could not finish (the embedder failed, say); the job may be tried again."""


class _Held:
    """``beat`` called from inside someone else's loop (the parser guard relaying its
    child's reports, the embedder's batches), which must not be unwound half-way: the
    guard would leave the child's answer unread. Its first error is kept and raised by
    ``raise_if_stopped`` once the loop is done; ``stopped`` asks the embedder to stop."""

    def __init__(self, beat: Beat) -> None:
        self.beat = beat
        self.stopped = threading.Event()
        self.error: Exception | None = None

    def __call__(self, state: JobState, done: int, total: int) -> None:
        if self.error is not None:
            return
        try:
            self.beat(state, done, total)
        except Exception as exc:  # re-raised by raise_if_stopped, whatever it is
            self.error = exc
            self.stopped.set()

    def raise_if_stopped(self) -> None:
        if self.error is not None:
            raise self.error


class JobSteps:
    """One worker's means of doing the steps: its own parser and page-reading children."""

    def __init__(self, settings: Settings, store: Store, indexes: StoreIndexes) -> None:
        self.settings, self.store, self.indexes = settings, store, indexes
        self.guard = ParserGuard(
            settings.parse_timeout,
            memory_mb=settings.parse_memory_mb,
            options={"pdf": {"ocr_budget": 0.0}},  # OCR is the page-by-page step instead
        )
        self.pages = PageReading(settings, store, indexes)

    def parse(self, document: Document, beat: Beat) -> Document:
        """Parse the original; the document's head, blocks and chunks replaced, then its
        keyword entries (vectors of an earlier attempt's texts are reused by ``embed``)."""
        data = self.store.original_path(document).read_bytes()
        held = _Held(beat)
        parsed = self.guard.read(
            data, source=document.source, progress=lambda p: held("parsing", p.done, p.total)
        )
        held.raise_if_stopped()
        head = with_parsed(document, parsed)
        chunks = settings_chunks(self.settings, document.id, parsed.blocks, parsed.format)
        described = describe_chunks(self.settings, head.title, chunks)
        head = with_warnings(head, described.warnings)
        self.store.store_parsed(StoredDocument(head, parsed.blocks, described.chunks))
        self.indexes.add(head, described.chunks)
        return head

    def ocr(self, document: Document, beat: Beat) -> Document:
        """Read the unread scanned pages one by one; each is stored once, in reading order."""
        pages = document.unread_pages
        for done, page in enumerate(pages):
            beat("ocr", done, len(pages))
            self._test_delay()
            self.pages.read(self._fresh(document), page)
        beat("ocr", len(pages), len(pages))
        fresh = self._fresh(document)
        notices = _read_notices(fresh, len(pages) - len(fresh.unread_pages))
        self.store.set_notices(document.id, notices)
        return replace(fresh, notices=notices)

    def embed(self, document: Document, beat: Beat) -> None:
        """Vectors for every chunk (none with embeddings off); the progress per batch.
        The step is reported before the embedder is asked for: loading a model takes
        seconds, and the document is readable (keyword-searchable) from now on."""
        total = len(self.store.chunks(document.id))
        beat("embedding", 0, total)
        if self.indexes.vectors is None:
            return
        held = _Held(beat)

        def batch(done: int) -> None:
            self._test_delay()
            held("embedding", done, total)

        report = self.indexes.embed([document], progress=batch, stop=held.stopped)
        held.raise_if_stopped()
        if report.error:
            raise JobFailed(f"vectors: {report.error}", source=document.id)
        beat("embedding", total, total)

    def _fresh(self, document: Document) -> Document:
        return self.store.get_document(document.id, Access.local())

    def _test_delay(self) -> None:
        delay = test_delay()
        if delay:
            time.sleep(delay)

    def close(self) -> None:
        self.guard.close()
        self.pages.close()


def _read_notices(document: Document, read: int) -> tuple[str, ...]:
    """The notices once the OCR steps are done: the parser's unread-pages one goes when no
    page is left unread, and the pages read are named as the inline add names them."""
    done = not document.unread_pages
    kept = [n for n in document.notices if not (done and is_unread_notice(n))]
    if read:
        verb = "was" if read == 1 else "were"
        total = document.page_count
        kept.insert(0, f"{read} of {total} pages {verb} read by OCR; the text may hold errors")
    return tuple(kept)


TEST_DELAY_VARIABLE = "ASKALONG_JOB_TEST_DELAY"


def test_delay() -> float:
    """Seconds a worker sleeps after each embedding batch: a hook for tests that kill it
    mid-step, read from the environment (never a setting: no deployment wants it)."""
    raw = os.environ.get(TEST_DELAY_VARIABLE, "").strip()
    try:
        return max(0.0, float(raw)) if raw else 0.0
    except ValueError:
        return 0.0
