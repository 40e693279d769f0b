"""Original files, kept by content hash under ``ASKALONG_HOME/files/``.

A file's name is its SHA-256 (``files/ab/ab12…``), never a name a user gave, so no input
can steer a path and the same bytes are kept once. Writes go to a temporary file in the
target folder and are renamed into place, so a crash leaves either the whole file or none
(plus, at worst, a ``.tmp-*`` file that ``OriginalFiles.open`` sweeps away next time).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from askalong.errors import DiskFull, InputError, StoreError
from askalong.files.atomic import write_atomically
from askalong.files.base import Aside
from askalong.files.disk import is_disk_full

_HASH = re.compile(r"[0-9a-f]{64}")
_ASIDE_PREFIX = ".deleting-"
_TEMP_PREFIX = ".tmp-"
# A temp file this old belongs to no write in progress (a write takes milliseconds), so it
# is a crash's leftover; younger ones may be another process writing right now.
STALE_TEMP_SECONDS = 60.0


def checked_hash(content_hash: str) -> str:
    """``content_hash`` when it is 64 lowercase hex digits (safe in a path or a key)."""
    if not _HASH.fullmatch(content_hash):
        raise InputError("content hash must be 64 lowercase hex digits", source=content_hash)
    return content_hash


def check_content_hash(content_hash: str, data: bytes) -> None:
    """Refuse a hash that is not the SHA-256 of ``data``: the name must be the content."""
    if hashlib.sha256(data).hexdigest() != checked_hash(content_hash):
        raise InputError("content hash does not match the original bytes", source=content_hash)


@dataclass(frozen=True)
class OriginalFiles:
    """The folder of original files; ``root`` is ``Settings.files_dir``."""

    root: Path

    @classmethod
    def open(cls, root: Path, *, stale_after: float = STALE_TEMP_SECONDS) -> OriginalFiles:
        """The folder at ``root``, with temp files left by a crashed write removed."""
        files = cls(root)
        files.sweep_temps(stale_after)
        return files

    def sweep_temps(self, stale_after: float = STALE_TEMP_SECONDS) -> list[Path]:
        """Remove ``.tmp-*`` files older than ``stale_after`` seconds; the ones removed."""
        cutoff = time.time() - stale_after
        removed: list[Path] = []
        for temp in self.root.glob(f"*/{_TEMP_PREFIX}*"):
            # A file vanishing or unreadable meanwhile is another process's business.
            with contextlib.suppress(OSError):
                if temp.is_file() and temp.stat().st_mtime < cutoff:
                    temp.unlink()
                    removed.append(temp)
        return removed

    def path(self, content_hash: str) -> Path:
        return self.root / checked_hash(content_hash)[:2] / content_hash

    def local_path(self, content_hash: str) -> Path:
        return self.path(content_hash)

    def has(self, content_hash: str) -> bool:
        return self.path(content_hash).is_file()

    def save(self, content_hash: str, data: bytes) -> Path:
        """Write ``data`` atomically; an existing file of that hash is left as it is."""
        check_content_hash(content_hash, data)
        target = self.path(content_hash)
        if target.is_file():
            return target
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data, prefix=_TEMP_PREFIX, durable=True)
        except OSError as exc:
            if is_disk_full(exc):
                raise DiskFull.of(str(target)) from exc
            raise StoreError(f"cannot write original file: {exc}", source=str(target)) from exc
        return target

    def remove(self, content_hash: str) -> None:
        """Delete the file if present; a leftover file is harmless, so failures are ignored."""
        with contextlib.suppress(OSError):
            self.path(content_hash).unlink(missing_ok=True)

    # Deleting in two steps lets a store drop the file inside its transaction and still
    # get it back if the transaction then fails.

    def set_aside(self, content_hash: str) -> Aside | None:
        """Rename the file out of the way; ``None`` when there is no file."""
        target = self.path(content_hash)
        aside = target.with_name(_ASIDE_PREFIX + target.name)
        try:
            os.replace(target, aside)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot remove original file: {exc}", source=str(target)) from exc
        return str(aside)

    def put_back(self, aside: Aside) -> None:
        path = Path(aside)
        with contextlib.suppress(OSError):
            os.replace(path, path.with_name(path.name.removeprefix(_ASIDE_PREFIX)))

    def discard(self, aside: Aside) -> None:
        with contextlib.suppress(OSError):
            Path(aside).unlink(missing_ok=True)
