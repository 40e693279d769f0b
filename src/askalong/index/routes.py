"""A store's search routes kept in step with it, whichever backend holds them.

A document goes to the store first (one transaction), then to the keyword route, and is
searchable from then on; its vectors follow, which may take a while (or fail: the
document stays keyword-searchable and its vectors are retried by the next ``embed``, or
when the server next starts). ``sync`` repairs what a crash between those steps left: a
document the store has and the keyword route lacks is indexed again, entries and vectors
of removed documents go.

``StoreIndexes`` is that bookkeeping, once; a backend says where its routes live: the
local files (``index/sync.SearchIndexes``) or the store's PostgreSQL database
(``index/pg_routes.PostgresRoutes``). The ``Library`` holds one of them and hands it to
the searcher, the ingestor, the workers and the background embedder alike.
"""

from __future__ import annotations

import contextlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Protocol, Self

from askalong.errors import AskAlongError
from askalong.index.base import KeywordRoute, VectorRoute
from askalong.index.embedding import Embedded, Embedding, EmbedReport, KeyedVectors
from askalong.index.reindex import Progress, reindex
from askalong.providers.base import Embedder
from askalong.store.base import Store
from askalong.types import Access, Chunk, Document

EmbedderFactory = Callable[[], Embedder | None]


class KeywordWriter(KeywordRoute, Protocol):
    """A keyword route whose writes a thread may gather into few commits
    (``index/keyword_batch.py``)."""

    def add(self, document: Document, chunks: Sequence[Chunk]) -> None: ...

    def batch(self) -> AbstractContextManager[None]: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


class StoreIndexes(ABC):
    """The keyword route and (once an embedder is loaded) the vector route of a store:
    the ``SearchRoutes`` a ``Searcher`` runs, and what keeps them in step with the store."""

    keyword: KeywordWriter

    def __init__(self, store: Store, embedder: EmbedderFactory) -> None:
        self.store = store
        self._make_embedder = embedder
        self._embedder: Embedder | None = None
        self._embedder_loaded = False
        self._vectors: VectorRoute | None = None
        self._loading = threading.Lock()  # a request and the background embedder may race
        # What runs once a document has vectors (the library's contradiction scan): every
        # way in (add, a job's last step, the server, a page read later) embeds here.
        self.after_embedding: list[Embedded] = []

    # ------------------------------------------------------------------ where they live

    @abstractmethod
    def _open_vectors(self, embedder: Embedder) -> VectorRoute:
        """The vector route of ``embedder``'s vector space."""

    @abstractmethod
    def _keyed(self, vectors: VectorRoute) -> KeyedVectors:
        """``vectors`` as what embedding writes to."""

    @abstractmethod
    def forget_vectors(self, document_ids: Collection[str]) -> None:
        """Set aside the documents' vectors in every vector space (no embedder loaded):
        no longer searchable, still reusable for identical texts."""

    @abstractmethod
    def drop_vectors(self, document_ids: Collection[str]) -> None:
        """Remove the documents' vectors in every vector space."""

    @abstractmethod
    def vector_documents(self) -> set[str]:
        """The documents holding vectors in any vector space (``sync`` drops those of
        documents the store lost)."""

    # ------------------------------------------------------------------ the routes

    @property
    def embedder(self) -> Embedder | None:
        """The embedder, loaded on first use (loading a model takes a moment)."""
        with self._loading:
            if not self._embedder_loaded:
                self._embedder = self._make_embedder()
                self._embedder_loaded = True
            return self._embedder

    @property
    def vectors(self) -> VectorRoute | None:
        """The vector route of the current embedder; None when embeddings are off."""
        embedder = self.embedder
        with self._loading:
            if self._vectors is None and embedder is not None:
                self._vectors = self._open_vectors(embedder)
            return self._vectors

    # ------------------------------------------------------------------ keeping in step

    def add(self, document: Document, chunks: Sequence[Chunk]) -> None:
        """Index a document just written to the store; vectors it had were for the text
        of an earlier copy, so they are set aside (their identical texts are reused)."""
        self.keyword.add(document, chunks)
        self.forget_vectors([document.id])

    def remove(self, document_id: str) -> None:
        self.keyword.delete(document_id)
        self.drop_vectors([document_id])

    def sync(self, progress: Progress | None = None) -> int:
        """Index what the store has and the keyword route lacks (``index/reindex.py``: every
        document after a keyword schema migration, ``progress`` hearing how far it got);
        drop what the store lost. Returns how many documents were indexed again."""
        # The routes are read before the store: a document is stored before it is
        # indexed, so one another process adds meanwhile is never taken for a removed one.
        indexed, embedded = self.keyword.document_ids(), self.vector_documents()
        stored = {d.id: d for d in self.store.list_documents(Access.local())}
        for gone in indexed - set(stored):
            self.keyword.delete(gone)
        self.drop_vectors(embedded - set(stored))
        missing = [stored[i] for i in sorted(set(stored) - indexed)]
        return reindex(self.store, self.keyword, missing, progress=progress)

    def pending_vectors(self) -> list[Document]:
        """Stored documents that have chunks but no vectors yet, oldest first."""
        if self.vectors is None:
            return []
        done = self.vectors.document_ids()
        pending = [d for d in self.store.list_documents(Access.local()) if d.id not in done]
        return [d for d in reversed(pending) if self.store.chunks(d.id)]

    def live_keys(self, document_id: str) -> dict[str, str]:
        """Chunk id -> content key of the document's searchable vectors ({} with
        embeddings off): what the doctor checks against its chunks."""
        vectors = self.vectors
        return {} if vectors is None else self._keyed(vectors).live_keys(document_id)

    def embed(
        self,
        documents: Sequence[Document],
        progress: Callable[[int], None] | None = None,
        stop: threading.Event | None = None,
    ) -> EmbedReport:
        """Give the documents' chunks vectors (``index/embedding.py``); stops at the first
        provider failure (or when ``stop`` is set, between batches)."""
        vectors, embedder = self.vectors, self.embedder
        if vectors is None or embedder is None:
            return EmbedReport(0, 0, "embeddings are off (ASKALONG_EMBEDDER=none)")
        embedding = Embedding(self.store, self._keyed(vectors), embedder, self.after_embedding)
        return embedding.run(documents, progress, stop)

    def embed_pending(self, stop: threading.Event | None = None) -> EmbedReport:
        """Embed every stored document that has no vectors yet (those a killed server or
        an ``add --no-embed`` left)."""
        return self.embed(self.pending_vectors(), stop=stop)

    def close(self) -> None:
        # What a batch left waiting goes in now; if it cannot, the store still holds it and
        # the next ``sync`` indexes it.
        with contextlib.suppress(AskAlongError):
            self.keyword.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
