"""The parts of one library, opened for the doctor one by one: a part that cannot be
opened is noted (the doctor's first finding) instead of stopping the others' checks, and
nothing is repaired on opening (``Library`` runs ``sync`` at once; the doctor must see
what there is first). When the search routes live in the store's PostgreSQL database
(``index/choose.in_database``), ``database`` holds them and ``keyword`` is theirs; no
file of the home is a search index then."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from askalong.config import Settings
from askalong.index.base import KeywordRoute
from askalong.index.choose import in_database, open_indexes
from askalong.index.keyword import KeywordIndex
from askalong.index.routes import StoreIndexes
from askalong.index.sync import vector_folder_name
from askalong.index.vectors import VectorIndex
from askalong.providers.base import Embedder
from askalong.store.backends import open_store
from askalong.store.base import Store


def opened(what: Callable[[], object]) -> tuple[object | None, str | None]:
    """``what()`` or the reason it failed. A corrupt tantivy folder can raise anything,
    its Rust panics included (a ``BaseException``), so only an interrupt goes through."""
    try:
        return what(), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return None, str(exc) or type(exc).__name__


@dataclass
class Parts:
    """The store (it must open), the keyword and vector indexes (or why not), the
    embedder the settings name (None when embeddings are off)."""

    settings: Settings
    store: Store
    embedder: Embedder | None
    keyword: KeywordRoute | None = None
    keyword_error: str | None = None
    database: StoreIndexes | None = None  # the routes in PostgreSQL, when they are there
    vectors: VectorIndex | None = None
    vectors_error: str | None = None

    @classmethod
    def open(cls, settings: Settings, embedder: Callable[[], Embedder | None]) -> Parts:
        parts = cls(settings, open_store(settings, sweep=False), embedder())
        if in_database(settings):
            parts.database = open_indexes(settings, parts.store, lambda: parts.embedder)
            parts.keyword = parts.database.keyword
            return parts
        parts.reopen_keyword()
        parts.reopen_vectors()
        return parts

    @property
    def keyword_folder(self) -> Path:
        return self.settings.index_dir / "keyword"

    @property
    def vector_root(self) -> Path:
        return self.settings.index_dir / "vectors"

    def vector_folder(self, embedder: Embedder) -> Path:
        return self.vector_root / vector_folder_name(embedder.vector_space)

    def reopen_keyword(self) -> None:
        def probe() -> KeywordIndex:
            index = KeywordIndex(self.keyword_folder)
            index.document_ids()  # reading the terms finds a broken segment too
            return index

        found, self.keyword_error = opened(probe)
        self.keyword = found if isinstance(found, KeywordIndex) else None

    def reopen_vectors(self) -> None:
        if self.vectors is not None:
            self.vectors.close()
        self.vectors, self.vectors_error = None, None
        if self.embedder is None:
            return
        folder, dimension = self.vector_folder(self.embedder), self.embedder.dimension
        found, self.vectors_error = opened(lambda: VectorIndex(folder, dimension))
        self.vectors = found if isinstance(found, VectorIndex) else None

    def close(self) -> None:
        if self.database is not None:
            self.database.close()
        if self.vectors is not None:
            self.vectors.close()
        self.store.close()

    def __enter__(self) -> Parts:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
