"""The embedded store: one SQLite file (WAL) beside a folder of original files.

``SQLiteStore`` is every aggregate's class over one connection (``connection``): the
documents (``documents``), the threads (``threads``), the collections
(``collections``), the resumable uploads (``uploads``), the accounts (``users``,
``orgs``) with their browser sessions (``sessions``), the per-user request counts
(``limits``) and failed sign-ins (``logins``), the ingestion jobs (``jobs``), the
contradiction scan's pairs (``conflicts``) and the feedback on answers (``feedback``). An
aggregate added later is one more class in its own module and one more base here. See
``connection`` for the concurrency model.
"""

from __future__ import annotations

from askalong.store.sqlite.collections import SQLiteCollections
from askalong.store.sqlite.conflicts import SQLiteConflicts
from askalong.store.sqlite.documents import SQLiteDocuments
from askalong.store.sqlite.feedback import SQLiteFeedback
from askalong.store.sqlite.jobs import SQLiteJobs
from askalong.store.sqlite.limits import SQLiteLimits
from askalong.store.sqlite.logins import SQLiteLogins
from askalong.store.sqlite.orgs import SQLiteOrgs
from askalong.store.sqlite.sessions import SQLiteSessions
from askalong.store.sqlite.threads import SQLiteThreads
from askalong.store.sqlite.uploads import SQLiteUploads
from askalong.store.sqlite.users import SQLiteUsers


class SQLiteStore(
    SQLiteJobs,  # before the documents' class it extends
    SQLiteDocuments,
    SQLiteThreads,
    SQLiteCollections,
    SQLiteUploads,
    SQLiteUsers,
    SQLiteOrgs,
    SQLiteLimits,
    SQLiteLogins,
    SQLiteSessions,
    SQLiteConflicts,
    SQLiteFeedback,
):
    """``Store`` over one SQLite file: ``SQLiteDocuments(path, files, trace=...)`` opens it,
    and every aggregate's methods share that connection and its lock."""
