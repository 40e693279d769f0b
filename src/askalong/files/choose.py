"""Opening the place originals are kept, as ``ASKALONG_FILES`` names it: empty, the
folder under ``ASKALONG_HOME``; ``s3://bucket/prefix``, object storage."""

from __future__ import annotations

from askalong.files.base import OriginalStore
from askalong.files.local import OriginalFiles
from askalong.settings import Settings


def open_originals(settings: Settings, *, sweep: bool = True) -> OriginalStore:
    """``sweep``: remove a local folder's temp files of crashed writes (``doctor`` opens
    without it, to report them)."""
    if settings.files:
        from askalong.files.s3 import S3OriginalFiles, s3_place

        return S3OriginalFiles(s3_place(settings.files), settings.originals_cache_dir)
    return OriginalFiles.open(settings.files_dir) if sweep else OriginalFiles(settings.files_dir)
