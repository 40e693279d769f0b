"""Every aggregate's class joined once: the store a backend completes with its database
class (``SQLiteStore``, ``PostgresStore``). An aggregate added later is one more base here."""

from __future__ import annotations

from askalong.store.sql.collections import SqlCollections
from askalong.store.sql.conflicts import SqlConflicts
from askalong.store.sql.documents import SqlDocuments
from askalong.store.sql.feedback import SqlFeedback
from askalong.store.sql.jobs import SqlJobs
from askalong.store.sql.limits import SqlLimits
from askalong.store.sql.logins import SqlLogins
from askalong.store.sql.orgs import SqlOrgs
from askalong.store.sql.sessions import SqlSessions
from askalong.store.sql.symbols import SqlSymbols
from askalong.store.sql.threads import SqlThreads
from askalong.store.sql.uploads import SqlUploads
from askalong.store.sql.users import SqlUsers


class SqlAggregates(
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
    SqlSymbols,
):
    """The methods of every aggregate; the connection comes from the backend's class."""
