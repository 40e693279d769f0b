"""What the two ways of adding text to a library share: the settings that cut chunks,
the store written to, the search indexes kept current, and one child process (a parser
or a page reader) closed with the writer."""

from __future__ import annotations

from typing import Self

from askalong.config import Settings
from askalong.index.routes import StoreIndexes
from askalong.store.base import DocumentStore


class LibraryWriter:
    """The base of ``Ingestor`` (whole documents) and ``PageReading`` (one page at a
    time); ``indexes`` is None where the caller indexes later."""

    def __init__(
        self, settings: Settings, store: DocumentStore, indexes: StoreIndexes | None = None
    ) -> None:
        self.settings = settings
        self.store = store
        self.indexes = indexes

    def close(self) -> None:
        """Stops the child process (each writer names its own)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
