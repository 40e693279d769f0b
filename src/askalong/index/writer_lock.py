"""One writer of the keyword index at a time, across processes: an exclusive ``flock`` on a
file beside the index, held for the whole write (open, add, commit).

Tantivy's own writer lock makes a second writer fail with ``LockBusy`` rather than wait,
and a retry loop can give up under load (17 parallel adds at load 30 lost one); with
worker processes writing batch after batch that is the common case. Waiting on a file
lock queues the writers in the kernel instead, and the lock goes with a killed process.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def lock_path(folder: Path) -> Path:
    """The lock file beside (never inside) the index folder, which tantivy owns."""
    return folder.with_name(folder.name + ".lock")


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the exclusive lock on ``path`` (made if missing) for the body."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
