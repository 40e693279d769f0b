"""The search routes of a PostgreSQL store: both routes in the store's own database.

``PostgresRoutes`` is the server's ``StoreIndexes`` (``index/routes.py``), what the
``Library`` holds when the store is PostgreSQL (``ASKALONG_SEARCH_ROUTES=auto``): the
keyword rows and the vectors every app server and worker shares, whatever its home.
Embedding reuses the stored vector of an identical text (``index/embedding.py``), and a
worker holds a document alone while it embeds it (an advisory lock), so workers on
several machines never embed one document twice.
"""

from __future__ import annotations

from collections.abc import Collection

from askalong.index.base import VectorRoute
from askalong.index.embedding import KeyedVectors
from askalong.index.pg_keyword import PostgresKeywordRoute
from askalong.index.pg_schema import Pool
from askalong.index.pg_vector import PostgresVectorRoute
from askalong.index.pg_vector_spaces import drop, forget, held
from askalong.index.routes import EmbedderFactory, StoreIndexes
from askalong.providers.base import Embedder
from askalong.store.base import Store


class PostgresRoutes(StoreIndexes):
    """The keyword route and (once an embedder is loaded) the vector route in PostgreSQL."""

    def __init__(
        self, pool: Pool, store: Store, embedder: EmbedderFactory, *, pgvector: bool | None = None
    ) -> None:
        """``pgvector``: None uses the extension where the server has it; False never."""
        super().__init__(store, embedder)
        self.pool = pool
        self.keyword = PostgresKeywordRoute(pool)
        self._pgvector = pgvector

    @property
    def vectors(self) -> PostgresVectorRoute | None:
        vectors = super().vectors
        assert vectors is None or isinstance(vectors, PostgresVectorRoute)
        return vectors

    def _open_vectors(self, embedder: Embedder) -> PostgresVectorRoute:
        space, dimension = embedder.vector_space, embedder.dimension
        return PostgresVectorRoute(
            self.pool, self.keyword, space, dimension, pgvector=self._pgvector
        )

    def _keyed(self, vectors: VectorRoute) -> KeyedVectors:
        assert isinstance(vectors, PostgresVectorRoute)
        return vectors

    def forget_vectors(self, document_ids: Collection[str]) -> None:
        forget(self.pool, document_ids)

    def drop_vectors(self, document_ids: Collection[str]) -> None:
        drop(self.pool, document_ids)

    def vector_documents(self) -> set[str]:
        return held(self.pool)
