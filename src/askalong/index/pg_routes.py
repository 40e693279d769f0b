"""The search routes of a PostgreSQL store: both routes in the store's own database.

``PostgresRoutes`` is the server's ``SearchRoutes`` (``index/base.py``), what the
``Searcher`` runs when the store is PostgreSQL, with what keeps them in step with the
store: ``add`` and ``remove`` as the local ``SearchIndexes`` has them, and ``embed`` for
documents without vectors (no reuse of vectors by content key yet: each text is embedded).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from types import TracebackType

import numpy as np

from askalong.chunk.descriptions import embedded_text
from askalong.errors import AskAlongError
from askalong.index.pg_keyword import PostgresKeywordRoute
from askalong.index.pg_schema import Pool
from askalong.index.pg_vector import PostgresVectorRoute
from askalong.index.sync import EmbedderFactory, EmbedReport
from askalong.providers.base import Embedder
from askalong.store.base import Store
from askalong.types import Chunk, Document


class PostgresRoutes:
    """The keyword route and (once an embedder is loaded) the vector route in PostgreSQL."""

    def __init__(
        self, pool: Pool, store: Store, embedder: EmbedderFactory, *, pgvector: bool | None = None
    ) -> None:
        """``pgvector``: None uses the extension where the server has it; False never."""
        self._pool = pool
        self.store = store
        self.keyword = PostgresKeywordRoute(pool)
        self._make_embedder = embedder
        self._embedder: Embedder | None = None
        self._loaded = False
        self._vectors: PostgresVectorRoute | None = None
        self._pgvector = pgvector
        self._loading = threading.Lock()

    @property
    def embedder(self) -> Embedder | None:
        with self._loading:
            if not self._loaded:
                self._embedder, self._loaded = self._make_embedder(), True
            return self._embedder

    @property
    def vectors(self) -> PostgresVectorRoute | None:
        embedder = self.embedder
        with self._loading:
            if self._vectors is None and embedder is not None:
                self._vectors = PostgresVectorRoute(
                    self._pool,
                    self.keyword,
                    embedder.vector_space,
                    embedder.dimension,
                    pgvector=self._pgvector,
                )
            return self._vectors

    def add(self, document: Document, chunks: Sequence[Chunk]) -> None:
        """Index a document just stored; the vectors of an earlier copy go."""
        self.keyword.add(document, chunks)
        if self.vectors is not None:
            self.vectors.delete(document.id)

    def remove(self, document_id: str) -> None:
        self.keyword.delete(document_id)
        if self.vectors is not None:
            self.vectors.delete(document_id)

    def embed(self, documents: Sequence[Document]) -> EmbedReport:
        """Give the documents' chunks (read from the store) vectors; stops at the first
        provider failure."""
        vectors, embedder = self.vectors, self.embedder
        if vectors is None or embedder is None:
            return EmbedReport(0, 0, "embeddings are off (ASKALONG_EMBEDDER=none)")
        done, chunks_done = 0, 0
        for document in documents:
            chunks = self.store.chunks(document.id)
            if not chunks:
                continue
            try:
                matrix = embedder.embed_passages([embedded_text(c) for c in chunks])
            except AskAlongError as exc:
                return EmbedReport(done, chunks_done, str(exc))
            vectors.add(document.id, [c.id for c in chunks], np.asarray(matrix))
            done, chunks_done = done + 1, chunks_done + len(chunks)
        return EmbedReport(done, chunks_done)

    def close(self) -> None:
        """The pool belongs to whoever opened it (the store); nothing to close here."""

    def __enter__(self) -> PostgresRoutes:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
