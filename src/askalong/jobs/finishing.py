"""Jobs whose steps are done, finished (``ready``) once their keyword entries are committed.

A worker indexes each parsed document inside a keyword batch (``index/keyword_batch.py``),
so a run of small jobs costs a commit per many documents. A job is finished only after
the commit that holds its entries: ``ready`` still means searchable, and a worker that dies
in between leaves its jobs running, for the sweep to run again (the store is the truth).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from askalong.errors import AskAlongError
from askalong.index.keyword_batch import BATCH_DOCUMENTS, BATCH_SECONDS
from askalong.index.routes import KeywordWriter
from askalong.jobs.queue import Lease


class Finishing:
    """The done jobs of one worker loop, waiting for their commit."""

    def __init__(self, keyword: KeywordWriter, log: Callable[[str], None]) -> None:
        self._keyword, self._log = keyword, log
        self._done: list[tuple[Lease, str]] = []
        self._since = 0.0

    def add(self, lease: Lease, message: str) -> None:
        """``lease``'s steps are done; ``message`` is logged once it is finished."""
        if not self._done:
            self._since = time.monotonic()
        self._done.append((lease, message))

    def due(self) -> bool:
        """Whether enough jobs, or old enough ones, wait for a commit."""
        if not self._done:
            return False
        waited = time.monotonic() - self._since
        return len(self._done) >= BATCH_DOCUMENTS or waited >= BATCH_SECONDS

    def settle(self) -> int:
        """Commit the keyword entries, then finish the jobs; how many ended (0 when the
        commit failed: they wait for the next try)."""
        if not self._done:
            return 0
        try:
            self._keyword.flush()
        except AskAlongError as exc:
            self._log(f"keyword index commit failed, retried with the next job: {exc}")
            return 0
        done, self._done = self._done, []
        for lease, message in done:
            if lease.finish():
                self._log(message)
        return len(done)
