"""Writing a file so that a reader sees the old bytes or the new ones, never half of each:
the data goes to a temporary file beside the target, which is then renamed over it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(
    target: Path, data: bytes, *, prefix: str = ".partial-", durable: bool = False
) -> None:
    """Replace ``target`` with ``data``; ``durable`` syncs it to disk first (a stored
    original must survive a power cut, a cache need not). The temporary file starts
    with ``prefix`` so a sweep can tell leftovers from real files."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=prefix)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
