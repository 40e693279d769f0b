"""Whether a failed write failed for want of space (pure): SQLite's ``SQLITE_FULL``
("database or disk is full") or the system's ``ENOSPC`` / ``EDQUOT``. The store and the
file writers turn such a failure into ``DiskFull`` naming the file, so a full disk reads
as that, not as a database error or an unknown one."""

from __future__ import annotations

import errno
import sqlite3

NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(exc, OSError) and exc.errno in NO_SPACE
