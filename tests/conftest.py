"""Shared fixtures: a private ASKALONG_HOME per test and the real evaluation data."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from askalong.config import Settings, load_settings
from askalong.store.backends import open_store
from askalong.store.base import Store
from support.postgres import PostgresServer, PostgresUnavailable

REPO = Path(__file__).resolve().parents[1]
# Shared helpers (the scripted chat server, sample files, stub parsers) import by name.
sys.path.insert(0, str(Path(__file__).parent / "helpers"))
# Fixtures shared across folders: the throwaway PostgreSQL cluster and both keyword routes;
# the check that every collected test reports an outcome (serially and under xdist);
# pytester, for that check's own tests.
pytest_plugins = ("pg_cluster", "keyword_routes", "accounted_tests", "pytester")
EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA") or REPO.parent / "shared" / "evaldata")


@pytest.fixture(scope="session")
def evaldata() -> Path:
    """The shared evaluation data; its absence is a failure, never a silent skip."""
    assert EVALDATA.is_dir(), f"evaluation data not found at {EVALDATA}"
    return EVALDATA


@pytest.fixture(scope="session")
def model_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled embedder's caches, built once per process (``model_caches.py``): pass
    to ``model_caches.seeded`` for a home that only uses them."""
    from model_caches import build_model_caches

    return build_model_caches(tmp_path_factory.mktemp("model-caches") / "home")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (``support/postgres.py``), started only when
    a test asks for it; one that cannot start fails that test, naming why."""
    try:
        server = PostgresServer.start()
    except PostgresUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database of its own for this test."""
    return postgres_server.database()


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """A private ASKALONG_HOME; keyword search only (tests of vectors opt in)."""
    home = tmp_path / "home"
    monkeypatch.setenv("ASKALONG_HOME", str(home))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "none")
    return load_settings(home=home)


@pytest.fixture(scope="session")
def moto_s3() -> Iterator[Any]:
    """moto's S3 server for the session (``moto_server.MotoServer``); started on first use."""
    from moto_server import moto_server

    with moto_server() as server:
        yield server


@pytest.fixture
def s3_bucket(moto_s3: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh bucket in moto's S3, boto3 (here and in children) pointed at it."""
    moto_s3.use(monkeypatch)
    name: str = moto_s3.new_bucket()
    return name


S3_PREFIX = "files"


@pytest.fixture
def s3_settings(settings: Settings, s3_bucket: str, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """``settings`` with originals and upload pieces in ``s3_bucket`` under ``S3_PREFIX``."""
    monkeypatch.setenv("ASKALONG_FILES", f"s3://{s3_bucket}/{S3_PREFIX}/")
    return load_settings(home=settings.home)


# Every store contract test runs against each backend listed here.
BACKENDS = ("sqlite", "postgres")


def slow_on_postgres(name: str) -> Any:
    """A backend's fixture parameter; PostgreSQL's is `slow`, so `make test` runs the
    contract against both backends and `make check` (the quick loop) against SQLite only."""
    return pytest.param(name, marks=pytest.mark.slow) if "postgres" in name else name


@pytest.fixture(params=[slow_on_postgres(name) for name in BACKENDS])
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _migrate(settings: Settings, url: str) -> None:
    """Open the store on ``url`` once: its schema migrated, for every test's copy."""
    open_store(dataclasses.replace(settings, database_url=url)).close()


def settings_for(backend: str, settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """``settings`` naming the backend: the SQLite file under its home, or the session's
    migrated PostgreSQL database, emptied for it (the server started once per session)."""
    if backend == "sqlite":
        return settings
    if backend == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        url = server.emptied("store", lambda url: _migrate(settings, url))
        return dataclasses.replace(settings, database_url=url)
    raise AssertionError(f"unknown backend {backend}")


@pytest.fixture
def backend_settings(backend: str, settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The test's ``settings`` naming the backend (``settings_for``)."""
    return settings_for(backend, settings, request)


def read_raw(settings: Settings, sql: str) -> list[tuple[Any, ...]]:
    """Rows straight from the database the settings name, past the store: what it keeps."""
    if settings.database_url:
        with psycopg.connect(settings.database_url) as conn:
            return conn.execute(sql.encode()).fetchall()
    with contextlib.closing(sqlite3.connect(settings.database_path)) as conn:
        return conn.execute(sql).fetchall()


@pytest.fixture
def store(backend_settings: Settings) -> Iterator[Store]:
    """The backend opened whole; each contract suite types it as the one aggregate it
    tests (``DocumentStore`` in test_store.py, ``ThreadStore`` in test_store_threads.py)."""
    with open_store(backend_settings) as opened:
        yield opened
