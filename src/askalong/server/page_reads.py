"""Pages being read now in the background (the reader's *Read it now*): OCR of one page can
take minutes on a busy machine, longer than a request should wait, so the read runs in a
long-step thread (``busy.LongWork``) and the reader asks how it goes: reading (with the
seconds so far), read (the page's blocks) or failed (why, e.g. not read in time).

One read per page at a time: asking again while it runs returns the read under way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from askalong.errors import AskAlongError
from askalong.ingest.pages import PageRead
from askalong.server.busy import LongWork

ReadState = Literal["reading", "read", "failed"]


@dataclass
class PageReadTask:
    """One page's read: its state, when it started, and what it came to."""

    page: int
    started: float = field(default_factory=time.monotonic)
    state: ReadState = "reading"
    result: PageRead | None = None
    message: str = ""
    ended: float | None = None

    def seconds(self) -> float:
        """How long it has run (or ran)."""
        return (self.ended or time.monotonic()) - self.started


class PageReads:
    """The reads started in this server, by (document id, page)."""

    def __init__(self) -> None:
        self._tasks: dict[tuple[str, int], PageReadTask] = {}
        self._lock = threading.Lock()

    def start(
        self, doc_id: str, page: int, work: Callable[[], PageRead], long_work: LongWork
    ) -> PageReadTask:
        """``work`` started in a long-step thread, unless this page is being read already;
        ``Busy`` when every long-step slot is taken."""
        with self._lock:
            running = self._tasks.get((doc_id, page))
            if running is not None and running.state == "reading":
                return running
            task = PageReadTask(page)
            long_work.start(lambda: _run(task, work))
            self._tasks[(doc_id, page)] = task
            return task

    def get(self, doc_id: str, page: int) -> PageReadTask | None:
        with self._lock:
            return self._tasks.get((doc_id, page))


def _run(task: PageReadTask, work: Callable[[], PageRead]) -> None:
    try:
        task.result = work()
        task.state = "read"
    except AskAlongError as exc:
        task.message, task.state = exc.message, "failed"
    except Exception as exc:  # any fault ends this read only; the reader shows it
        task.message, task.state = f"the page could not be read: {exc}", "failed"
    finally:
        task.ended = time.monotonic()
