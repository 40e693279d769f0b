"""What every command needs: the settings and an open library (store + indexes)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from askalong.config import load_settings
from askalong.library import Library


@contextmanager
def opened_library() -> Iterator[Library]:
    with Library(load_settings()) as library:
        yield library
