"""The upload area: ``ASKALONG_HOME/uploads/<id>``, one growing file per upload.

The name is the server's random upload id (checked against its pattern before any path
is made), never anything a client sent. A piece of a request's body is first written to
its own temporary file beside the uploads (so a dropped or refused request leaves the
upload untouched), then appended after the committed offset: the file is cut back to that
offset first, so bytes a crash left past it are never kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from askalong.errors import InputError, StoreError

_UPLOAD_ID = re.compile(r"[0-9a-f]{32}")
_PIECE_PREFIX = ".piece-"
COPY_BUFFER = 1024 * 1024


def check_upload_id(upload_id: str) -> str:
    if not _UPLOAD_ID.fullmatch(upload_id):
        raise InputError("an upload id is 32 lowercase hex digits", source=upload_id[:40])
    return upload_id


@dataclass(frozen=True)
class UploadArea:
    root: Path

    def path(self, upload_id: str) -> Path:
        return self.root / check_upload_id(upload_id)

    def new_piece(self) -> tuple[int, Path]:
        """A fresh temporary file for a request's body: its open descriptor and path."""
        self.root.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=_PIECE_PREFIX, dir=self.root)
        return fd, Path(name)

    def append(self, upload_id: str, offset: int, piece: Path) -> None:
        """Put ``piece`` at ``offset`` of the upload's file (cut back to ``offset`` first)."""
        target = self.path(upload_id)
        try:
            with open(target, "ab") as out:
                out.truncate(offset)
                with open(piece, "rb") as source:
                    shutil.copyfileobj(source, out, COPY_BUFFER)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            raise StoreError(f"cannot write the upload: {exc}", source=upload_id) from exc

    def read(self, upload_id: str, length: int) -> bytes:
        """The upload's first ``length`` bytes (the committed ones)."""
        try:
            with open(self.path(upload_id), "rb") as source:
                data = source.read(length)
        except OSError as exc:
            raise StoreError(f"cannot read the upload: {exc}", source=upload_id) from exc
        if len(data) != length:
            raise StoreError(f"the upload holds {len(data)} of {length} bytes", source=upload_id)
        return data

    def create(self, upload_id: str) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.path(upload_id).touch()

    def remove(self, upload_id: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path(upload_id).unlink()

    def leftover_pieces(self) -> list[Path]:
        """Temporary pieces of requests that never finished (a crash mid-request)."""
        return sorted(self.root.glob(f"{_PIECE_PREFIX}*")) if self.root.is_dir() else []


def discard(piece: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        piece.unlink()
