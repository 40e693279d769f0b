"""A home of read documents searched without vectors, as the offline chat tests use it:
filled once per module, then opened by each test with the CLI's environment pointing at it
(``ASKALONG_HOME``, ``ASKALONG_EMBEDDER=none``) so the CLI and the server open the same."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from askalong.config import load_settings
from askalong.library import Library
from askalong.types import Access


def filled(home: Path, items: Iterable[Path]) -> Path:
    """``home`` with each of ``items`` read into it (keyword search only)."""
    with Library(load_settings(home=home, embedder="none")) as library:
        for item in items:
            outcome = library.ingestor.add(str(item), Access.local())
            assert outcome.document is not None, outcome.error
    return home


def opened(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Library]:
    """The library at ``home``, the environment set for the CLI to open it too."""
    monkeypatch.setenv("ASKALONG_HOME", str(home))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "none")
    with Library(load_settings(home=home)) as library:
        yield library
