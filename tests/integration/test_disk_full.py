"""A full disk during an ingest (issue 25 §4): the error says "disk full" and names the
file, the write-ahead log the failed transaction filled is cut back, and the next ingest
works once there is space. The full disk is SQLite's own: ``max_page_count`` makes the
store's connection fail with the same ``SQLITE_FULL`` a full disk gives, through the same
rollback, with a small page cache so the transaction's pages spill into the log first."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path
from typing import Any, cast

from askalong.config import Settings
from askalong.files.disk import is_disk_full
from askalong.library import Library
from askalong.types import Access

UNLIMITED_PAGES = 1_073_741_823


def _note(folder: Path, name: str, sections: int) -> Path:
    body = "\n\n".join(
        f"## Part {i}\n\nThe pump at station {i} feeds valve {i} through pipe {i * 7}." * 3
        for i in range(sections)
    )
    path = folder / name
    path.write_text(f"# {name}\n\n{body}\n", encoding="utf-8")
    return path


def test_a_full_disk_is_named_and_leaves_no_log_behind(settings: Settings, tmp_path: Path) -> None:
    with Library(settings) as library:
        first = library.ingestor.add(str(_note(tmp_path, "small.md", 3)), Access.local())
        assert first.document is not None, first.error
        connection = cast(Any, library.store)._conn
        connection.execute("PRAGMA cache_size = 8")  # the transaction's pages spill to the log
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages + 30}")  # the disk is nearly full
        big = _note(tmp_path, "big.md", 2_000)
        failed = library.ingestor.add(str(big), Access.local())
        assert failed.document is None
        assert f"disk full: no space left to write {settings.database_path}" in failed.error
        log = Path(f"{settings.database_path}-wal")
        assert log.stat().st_size == 0  # the failed transaction's pages are gone
        connection.execute(f"PRAGMA max_page_count = {UNLIMITED_PAGES}")  # space was freed
        again = library.ingestor.add(str(big), Access.local())
        assert again.document is not None, again.error


def test_no_space_is_told_apart_from_other_failures() -> None:
    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert is_disk_full(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not is_disk_full(sqlite3.OperationalError("database is locked"))
