"""What every command needs: the settings and an open store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from askalong.config import Settings, load_settings
from askalong.store.base import Store, open_store


@contextmanager
def opened_store(settings: Settings | None = None) -> Iterator[tuple[Settings, Store]]:
    settings = settings or load_settings()
    store = open_store(settings)
    try:
        yield settings, store
    finally:
        store.close()
