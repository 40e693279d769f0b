"""Waiting is bounded on the server: a request that finds a shared resource taken waits a
moment, then is refused with ``Busy`` (503 with ``Retry-After``) instead of parking one of
the thread pool's threads for as long as the holder takes.

- ``WriteLock``: the server's one lock around short store transactions and keyword index
  writes (never held across a parse, OCR or embedding); a request that cannot take it
  within ``WRITE_WAIT`` seconds is refused. A route waits for it on the event loop
  (``held``), so waiting writers hold no thread either.
- ``LongWork``: the slots for a request's long steps (parsing an upload, reading a page
  by OCR), run in threads of their own, outside the pool that serves every route: a
  request that finds every slot taken is refused at once, so long steps never use up the
  threads that answer ``/api/session`` or a delete.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import TracebackType
from typing import TypeVar

import anyio
import anyio.to_thread

from askalong.errors import Busy

T = TypeVar("T")

WRITE_WAIT = 0.5  # seconds: a transaction and its index write take milliseconds to 0.3 s
LONG_SLOTS = 4  # long steps at once for requests; the worker's jobs are not counted
RETRY_AFTER = 2  # seconds a refused client is told to wait
QUEUED_POLL = 0.2  # seconds between looks for a free slot by work that has no client
HELD_POLL = 0.05  # seconds between a waiting route's looks at the write lock


class WriteLock:
    """A lock taken as a context manager that gives up after ``wait`` seconds."""

    def __init__(self, wait: float = WRITE_WAIT) -> None:
        self.wait = wait
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        """Taken in a thread (a long step's, which writes when its work is done)."""
        if not self._lock.acquire(timeout=self.wait):
            raise _busy_writing()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._lock.release()

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """Taken from the event loop, for the body to write in a thread: a route that
        waits holds no thread meanwhile."""
        deadline = time.monotonic() + self.wait
        while not self._lock.acquire(blocking=False):
            if time.monotonic() >= deadline:
                raise _busy_writing()
            await asyncio.sleep(HELD_POLL)
        try:
            yield
        finally:
            self._lock.release()


def _busy_writing() -> Busy:
    return Busy("another change is being written; try again", retry_after=RETRY_AFTER)


class LongWork:
    """``slots`` long steps at once, each in a thread outside the shared pool."""

    def __init__(self, slots: int = LONG_SLOTS) -> None:
        self.slots = slots
        self.running = 0  # slots taken
        self._counting = threading.Lock()
        # Never waited on: a step holds a slot before it asks for a thread.
        self._threads = anyio.CapacityLimiter(slots)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in a thread of its own, or ``Busy`` when every slot is taken."""
        self._take()
        return await self._in_thread(work, *args)

    async def run_queued(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` once a slot is free, waiting without a thread (work that has no
        client to refuse: what follows a finished resumable upload)."""
        while not self._try_take():
            await asyncio.sleep(QUEUED_POLL)
        return await self._in_thread(work, *args)

    def start(self, work: Callable[[], object]) -> None:
        """``work()`` in a thread that outlives the request (a streamed upload's), or
        ``Busy`` when every slot is taken; the slot is free when the work ends."""
        self._take()

        def run() -> None:
            try:
                work()
            finally:
                self._give_back()

        threading.Thread(target=run, name="askalong-long-step", daemon=True).start()

    def _try_take(self) -> bool:
        with self._counting:
            if self.running >= self.slots:
                return False
            self.running += 1
            return True

    def _give_back(self) -> None:
        with self._counting:
            self.running -= 1

    def _take(self) -> None:
        if not self._try_take():
            raise Busy(
                f"{self.slots} uploads or page reads are already running; try again",
                retry_after=RETRY_AFTER,
            )

    async def _in_thread(self, work: Callable[..., T], *args: object) -> T:
        try:
            return await anyio.to_thread.run_sync(work, *args, limiter=self._threads)
        finally:
            self._give_back()
