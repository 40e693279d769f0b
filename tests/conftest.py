"""Shared fixtures: a private ASKALONG_HOME per test and the real evaluation data."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from askalong.config import Settings, load_settings
from askalong.store.backends import open_store
from askalong.store.base import Store

REPO = Path(__file__).resolve().parents[1]
# Shared helpers (the scripted chat server, sample files, stub parsers) import by name.
sys.path.insert(0, str(Path(__file__).parent / "helpers"))
# Fixtures shared across folders: the throwaway PostgreSQL cluster and both keyword routes.
pytest_plugins = ("pg_cluster", "keyword_routes")
EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA") or REPO.parent / "shared" / "evaldata")


@pytest.fixture(scope="session")
def evaldata() -> Path:
    """The shared evaluation data; its absence is a failure, never a silent skip."""
    assert EVALDATA.is_dir(), f"evaluation data not found at {EVALDATA}"
    return EVALDATA


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """A private ASKALONG_HOME; keyword search only (tests of vectors opt in)."""
    home = tmp_path / "home"
    monkeypatch.setenv("ASKALONG_HOME", str(home))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "none")
    return load_settings(home=home)


# Every store contract test runs against each backend listed here.
BACKENDS = ("sqlite",)


def open_backend(name: str, settings: Settings) -> Store:
    if name == "sqlite":
        return open_store(settings)
    raise AssertionError(f"unknown backend {name}")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def store(backend: str, settings: Settings) -> Iterator[Store]:
    """The backend opened whole; each contract suite types it as the one aggregate it
    tests (``DocumentStore`` in test_store.py, ``ThreadStore`` in test_store_threads.py)."""
    with open_backend(backend, settings) as opened:
        yield opened
