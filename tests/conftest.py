"""Shared fixtures: a private ASKALONG_HOME per test and the real evaluation data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from askalong.config import Settings, load_settings

REPO = Path(__file__).resolve().parents[1]
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
