"""The embedded store: one SQLite file (WAL) beside a folder of original files.

``SQLiteStore`` is every aggregate's class (``store/sql``: the SQL it shares with the
PostgreSQL store) over one connection (``connection``): the documents, the threads, the
collections, the resumable uploads, the accounts with their browser sessions, the
per-user request counts and failed sign-ins, the ingestion jobs, the contradiction scan's
pairs and the feedback on answers. An aggregate added later is one more class in
``store/sql`` and one more base here. See ``connection`` for the concurrency model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from askalong.files.base import OriginalStore
from askalong.store.sql.collections import SqlCollections
from askalong.store.sql.conflicts import SqlConflicts
from askalong.store.sql.documents import SqlDocuments
from askalong.store.sql.feedback import SqlFeedback
from askalong.store.sql.jobs import SqlJobs
from askalong.store.sql.limits import SqlLimits
from askalong.store.sql.logins import SqlLogins
from askalong.store.sql.orgs import SqlOrgs
from askalong.store.sql.sessions import SqlSessions
from askalong.store.sql.threads import SqlThreads
from askalong.store.sql.uploads import SqlUploads
from askalong.store.sql.users import SqlUsers
from askalong.store.sqlite.connection import SQLiteDatabase


class SQLiteStore(
    SqlJobs,  # before the documents' class it extends
    SqlDocuments,
    SqlThreads,
    SqlCollections,
    SqlUploads,
    SqlUsers,
    SqlOrgs,
    SqlLimits,
    SqlLogins,
    SqlSessions,
    SqlConflicts,
    SqlFeedback,
    SQLiteDatabase,
):
    """``Store`` over one SQLite file: every aggregate's methods share its connection
    and its lock."""

    def __init__(
        self, path: Path, files: OriginalStore, *, trace: Callable[[str], None] | None = None
    ) -> None:
        """Open (creating if needed) and migrate; ``trace`` receives every SQL statement run."""
        self._files = files
        SQLiteDatabase.__init__(self, path, trace=trace)
