"""A throwaway PostgreSQL server for the tests: one per test session, one database per test.

``PostgresServer.start()`` runs the server the ``pgserver`` package bundles
(PostgreSQL 16 with pgvector's ``vector`` extension) in a temporary folder, on a unix socket, with
durability off (a test's data need not survive a power cut). ``ASKALONG_TEST_DATABASE_URL``
names a server to use instead (CI's own, say); its databases are dropped as the
session ends. A server that cannot start is a failure naming why, never a skip.

``server.database()`` makes a fresh, empty database (a copy of ``template0``) and returns
its URL; ``server.database(server.template(key, prepare))`` copies a database prepared once
per session instead (migrated, say: a copy is cheaper than running the migrations again).
``server.emptied(key, prepare)`` is cheaper still for the many tests that need no database
of their own: one database prepared once, every table emptied for each test.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

URL_VARIABLE = "ASKALONG_TEST_DATABASE_URL"
# A test server trades durability for speed; these are its settings, nothing else.
_FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class PostgresUnavailable(RuntimeError):
    """The test server could not be started or reached; the message says why."""


@dataclass
class PostgresServer:
    """A running server the tests may make databases on: ``stop`` stops one this session
    started (its folder goes, databases and all), or drops what the tests made on a given one."""

    url: str  # of its maintenance database
    _stop: Callable[[], None] | None = None  # None: a given server, not this session's
    _made: list[str] = field(default_factory=list)
    _templates: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(cls) -> PostgresServer:
        """The server ``ASKALONG_TEST_DATABASE_URL`` names, else a new one in a temporary
        folder of its own (not pytest's: a concurrent session's clean-up of old pytest
        folders would delete the data from under a running server)."""
        given = os.environ.get(URL_VARIABLE)
        server = cls(given) if given else _bundled(Path(tempfile.mkdtemp(prefix="askalong-pg-")))
        server._check()
        return server

    def database(self, template: str = "template0") -> str:
        """A new database copied from ``template``; returns its URL."""
        name = f"askalong_test_{uuid.uuid4().hex[:12]}"
        self._create(name, template)
        return with_database(self.url, name)

    def template(self, key: str, prepare: Callable[[str], None]) -> str:
        """The name of a database made once per session by ``prepare(url)`` (migrating
        it, say), to pass to ``database``; every connection to it is closed after."""
        if key not in self._templates:
            name = f"askalong_template_{key}_{uuid.uuid4().hex[:8]}"
            self._create(name, "template0")
            prepare(with_database(self.url, name))
            self._templates[key] = name
        return self._templates[key]

    def emptied(self, key: str, prepare: Callable[[str], None]) -> str:
        """The URL of the database ``prepare`` made once, every row but the schema
        versions deleted now: as good as new for a test. One round trip of DELETEs takes
        milliseconds where TRUNCATE (new files for every table) takes a third of a second."""
        url = with_database(self.url, self.template(key, prepare))
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET lock_timeout = '10s'")  # a test that left a write open: fail
            tables = conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename != 'schema_migrations'"
            ).fetchall()
            deletes = [sql.SQL("DELETE FROM {}").format(sql.Identifier(t)) for (t,) in tables]
            if deletes:  # one statement each, in one round trip
                conn.execute(sql.SQL("; ").join(deletes))
        return url

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
            return
        with psycopg.connect(self.url, autocommit=True) as conn:
            for name in reversed(self._made):
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )

    def _create(self, name: str, template: str) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(name), sql.Identifier(template)
                )
            )
        self._made.append(name)

    def _check(self) -> None:
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error as exc:
            raise PostgresUnavailable(f"cannot connect to {self.url}: {exc}") from exc


def with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead of its own."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _started(pgserver: Any, folder: Path, attempts: int = 3) -> Any:
    """pgserver's server in ``folder``, fast settings on. pgserver gives ``pg_ctl start``
    10 s, which a loaded CI machine can overrun while the server still comes up: asking
    again for the same folder then finds it running."""
    for attempt in range(attempts):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                server = pgserver.get_server(folder, cleanup_mode="stop")
                for name, value in _FAST.items():
                    server.psql(f"ALTER SYSTEM SET {name} = '{value}';")
                server.psql("SELECT pg_reload_conf();")
                return server
        except subprocess.TimeoutExpired:
            if attempt == attempts - 1:
                raise
            time.sleep(2.0)
    raise AssertionError("unreachable")


def _bundled(folder: Path) -> PostgresServer:
    """Start the ``pgserver`` package's PostgreSQL in ``folder``."""
    try:
        with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR, /tmp will do
            warnings.simplefilter("ignore")
            import pgserver
    except ImportError as exc:
        raise PostgresUnavailable(
            f"the tests need PostgreSQL: pip install pgserver, or set {URL_VARIABLE}"
        ) from exc
    try:
        server = _started(pgserver, folder)
    except Exception as exc:  # pgserver raises whatever initdb or pg_ctl did
        log = folder / "log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise PostgresUnavailable(f"pgserver could not start PostgreSQL: {exc}\n{tail}") from exc

    def stop() -> None:
        server.cleanup()
        _remove_later(folder)

    return PostgresServer(server.get_uri(), stop)


def _remove_later(folder: Path) -> None:
    """Delete the stopped cluster's folder in a process of its own, not waited for: with a
    database made for each test it holds hundreds of MB, whose deletion took the session's
    last 6 to 25 s on a busy disk."""
    subprocess.Popen(
        ["rm", "-rf", "--", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
