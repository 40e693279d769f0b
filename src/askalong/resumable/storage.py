"""``UploadStorage``: where a resumable upload's committed bytes wait until it is
complete, whichever the place (``area.UploadArea``: a file per upload under
``ASKALONG_HOME/uploads``; ``s3area.S3UploadArea``: an object per piece in S3, so an upload
begun through one app server resumes through another). A request's body is always first
written to a local temporary piece (``new_piece``) and checked before it is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from askalong.resumable.area import UploadArea
from askalong.settings import Settings


class UploadStorage(Protocol):
    def new_piece(self) -> tuple[int, Path]:
        """A fresh local temporary file for a request's body: its descriptor and path."""
        ...

    def leftover_pieces(self) -> list[Path]: ...

    def create(self, upload_id: str) -> None: ...

    def append(self, upload_id: str, offset: int, piece: Path) -> None:
        """Keep ``piece`` at ``offset``, dropping whatever was kept past it."""
        ...

    def read(self, upload_id: str, length: int) -> bytes: ...

    def remove(self, upload_id: str) -> None: ...


def open_upload_storage(settings: Settings) -> UploadStorage:
    """The storage ``ASKALONG_FILES`` names (empty: the folder under ``ASKALONG_HOME``)."""
    if settings.files:
        from askalong.files.s3 import s3_place
        from askalong.resumable.s3area import S3UploadArea

        return S3UploadArea(s3_place(settings.files), UploadArea(settings.uploads_dir))
    return UploadArea(settings.uploads_dir)
