"""Who may write a vector folder now, across threads and processes: the short claim held
to check what a document's vectors are for and to add them, and the claim on one document
held while it is embedded (another embedder skips it rather than waiting)."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CLAIM_FILE = "embed.lock"
CLAIMS_FOLDER = "embedding"  # one lock file per document being embedded


class VectorClaims:
    """The claims of the vector folder ``folder``."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._lock = threading.Lock()

    @contextmanager
    def claim(self) -> Iterator[None]:
        """Exclusive use for checking what a document's vectors are for and adding them,
        across threads and processes: held for that short step only, never while texts
        are embedded (searches do not wait for it at all)."""
        with self._lock, open(self._folder / CLAIM_FILE, "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextmanager
    def claim_document(self, document_id: str) -> Iterator[bool]:
        """Whether this embedder has the document to itself for the body (across threads
        and processes): False at once when another holds it, which then adds its
        vectors; nobody waits for a document being embedded. The lock goes with a killed
        process; its file (a few bytes of inode) stays, since unlinking it races a taker."""
        folder = self._folder / CLAIMS_FOLDER
        folder.mkdir(exist_ok=True)
        with open(folder / f"{document_id}.lock", "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
