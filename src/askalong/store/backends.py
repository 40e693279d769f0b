"""Opening the store the settings name: the one module that knows every backend.

It lives apart from the protocols (``askalong.store.base``) because backends import the
protocols; a chooser beside them would close an import cycle. A backend whose driver is
an optional dependency is to be imported inside its branch of ``open_store``.
"""

from __future__ import annotations

from askalong.config import Settings
from askalong.files.choose import open_originals
from askalong.store.base import Store
from askalong.store.sqlite.store import SQLiteStore


def open_store(settings: Settings, *, sweep: bool = True) -> Store:
    """The store the settings name: the PostgreSQL database of ``database_url`` when set
    (server mode), else the SQLite file under ``ASKALONG_HOME``; its originals where
    ``ASKALONG_FILES`` says. ``sweep``: remove stale temp files of crashed writes
    (``doctor`` opens without it, to report them)."""
    files = open_originals(settings, sweep=sweep)
    if settings.database_url:
        # the driver is the server extra: imported only when server mode is asked for
        from askalong.store.postgres.store import PostgresStore

        return PostgresStore(settings.database_url, files)
    return SQLiteStore(settings.database_path, files)
