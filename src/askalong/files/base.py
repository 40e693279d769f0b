"""``OriginalStore``: where original files are kept by content hash, whichever the place
(a folder under ``ASKALONG_HOME``: ``files/local``; an S3 bucket: ``files/s3``).

Both refuse bytes whose SHA-256 is not the name they are saved under, and neither makes a
name from anything a user sent. A store's transaction deletes an original in two steps
(``set_aside`` inside it, then ``discard`` after the commit or ``put_back`` if it failed),
so a failed delete never loses the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

# Where a set-aside original waits for ``discard`` or ``put_back``: a path or an object key.
Aside = str


class OriginalStore(Protocol):
    def save(self, content_hash: str, data: bytes) -> object:
        """Keep ``data`` under its hash (checked); an original already there stays."""
        ...

    def has(self, content_hash: str) -> bool:
        """Whether the original is kept (without reading it)."""
        ...

    def local_path(self, content_hash: str) -> Path:
        """A file on this machine holding the original (parsers and responses read files);
        a path that does not exist when there is no such original."""
        ...

    def remove(self, content_hash: str) -> None:
        """Delete it if present; failing is harmless (a leftover original is only space)."""
        ...

    def set_aside(self, content_hash: str) -> Aside | None: ...

    def put_back(self, aside: Aside) -> None: ...

    def discard(self, aside: Aside) -> None: ...
