"""The search-route protocols a backend implements, and what the ``Searcher`` is handed.

Two routes: ``KeywordRoute`` (BM25 over our tokens) and ``VectorRoute`` (cosine over
chunk vectors). Each applies the permission rule of ``types.Access`` inside its own query,
so a document the caller may not see never takes a place in the top-K: tantivy adds it as
a clause (``index/keyword.py``), the local vector route restricts the rows it scores to
the documents the keyword route lets the caller see (``index/vector_route.py``), and a
PostgreSQL backend would write it into the SQL of its full-text and pgvector queries.

Besides searching, each route has what ``StoreIndexes.sync`` needs to keep it in step
with the store: add, delete, and the documents it holds. ``tests/contract/
test_permissions.py`` runs one permission matrix against every route and store.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence, Set
from dataclasses import dataclass
from typing import Protocol

import numpy.typing as npt

from askalong.providers.base import Embedder
from askalong.types import Access, Chunk, Document, Hit


class KeywordRoute(Protocol):
    """BM25 over chunks, with the permission fields of their documents."""

    def search(
        self,
        query: str,
        access: Access,
        *,
        documents: Collection[str] | None = None,
        limit: int = 150,
    ) -> Sequence[Hit]:
        """The ``limit`` best chunks for ``query`` among those ``access`` may see (and,
        when given, among ``documents``); mode "keyword", 1-based ``keyword_rank``."""
        ...

    def document_ids(
        self, access: Access | None = None, *, among: Collection[str] | None = None
    ) -> Set[str]:
        """The documents with chunks in the route that ``access`` (when given) may see,
        and that are in ``among`` (when given)."""
        ...

    def add_many(self, entries: Iterable[tuple[Document, Sequence[Chunk]]]) -> None:
        """Index the documents' chunks, replacing what each had; all or nothing."""
        ...

    def delete(self, document_id: str) -> None:
        """Remove every chunk of the document (nothing happens if none is indexed)."""
        ...


@dataclass(frozen=True)
class VectorScope:
    """What a vector search may score, resolved by the route from an ``Access``: the
    documents the caller may see (among those named) that have vectors, and those that
    have none yet (the keyword route alone searches them)."""

    ready: frozenset[str]
    pending: frozenset[str]


class VectorRoute(Protocol):
    """Nearest chunk vectors by cosine, among the documents a caller may see.

    Searching takes two steps because the searcher must know what is searchable before
    it spends an embedding on the query, and which documents lack vectors (fusion scores
    their keyword hits apart); the route resolves the permission once, in ``scope``."""

    def scope(self, access: Access, documents: Collection[str] | None = None) -> VectorScope:
        """The documents ``access`` may see (among ``documents``, when given), split by
        whether they have vectors yet."""
        ...

    def search(
        self, vector: npt.ArrayLike, scope: VectorScope, *, limit: int = 150
    ) -> Sequence[Hit]:
        """The ``limit`` chunks most similar to ``vector`` among ``scope.ready``, the
        restriction applied before scoring; mode "vector", 1-based ``vector_rank``."""
        ...

    def document_ids(self) -> set[str]:
        """The documents with at least one vector."""
        ...

    def add(
        self,
        document_id: str,
        chunk_ids: Sequence[str],
        vectors: npt.ArrayLike,
        keys: Sequence[str] | None = None,
    ) -> None:
        """Store the document's chunk vectors, replacing any it had; ``keys``: the
        content keys of their texts (``vector_rows.content_key``), when known."""
        ...

    def delete(self, document_id: str) -> None:
        """Remove every vector of the document."""
        ...


class SearchRoutes(Protocol):
    """The routes of one backend as the ``Searcher`` runs them, kept in step with the store
    by whoever hands them out (``StoreIndexes``: the local files or PostgreSQL)."""

    @property
    def keyword(self) -> KeywordRoute: ...

    @property
    def vectors(self) -> VectorRoute | None:
        """None when embeddings are off."""
        ...

    @property
    def embedder(self) -> Embedder | None:
        """The embedder whose vector space ``vectors`` holds: it embeds the query."""
        ...
