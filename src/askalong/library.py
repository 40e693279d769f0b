"""Everything one ``ASKALONG_HOME`` holds, opened together: the store, the search
indexes beside it, the searcher and the ingestor. The CLI and the server each open one."""

from __future__ import annotations

from types import TracebackType

from askalong.config import Settings
from askalong.indexing import SearchIndexes
from askalong.ingest import Ingestor
from askalong.providers.choose import make_embedder, make_reranker
from askalong.search import Searcher
from askalong.store.base import open_store
from askalong.types import Access


class Library:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = open_store(settings)
        self.indexes = SearchIndexes(settings, self.store, lambda: make_embedder(settings))
        self.indexes.sync()
        self.searcher = Searcher(self.store, self.indexes, reranker=make_reranker(settings))
        self._ingestor: Ingestor | None = None

    @property
    def ingestor(self) -> Ingestor:
        """The ingestor, made on first use (it starts the guarded parser process)."""
        if self._ingestor is None:
            self._ingestor = Ingestor(self.settings, self.store, self.indexes)
        return self._ingestor

    def remove(self, document_id: str, access: Access) -> None:
        self.store.delete_document(document_id, access)
        self.indexes.remove(document_id)

    def close(self) -> None:
        if self._ingestor is not None:
            self._ingestor.close()
        self.indexes.close()
        self.store.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
