"""The search indexes beside the store, kept in step with it.

A document goes to the store first (one transaction), then to the keyword index, and is
searchable from then on; its vectors follow, which may take a while (or fail: the
document stays keyword-searchable and its vectors are retried by the next ``embed``).
``sync`` repairs what a crash between those steps left: a document the store has and
the keyword index lacks is indexed again, index entries of removed documents go.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType

from askalong.config import Settings
from askalong.errors import AskAlongError
from askalong.index.keyword import KeywordIndex
from askalong.index.vector_route import VectorIndexRoute
from askalong.index.vectors import VectorIndex
from askalong.providers.base import Embedder
from askalong.store.base import Store
from askalong.types import Access, Chunk, Document

EmbedderFactory = Callable[[], Embedder | None]


@dataclass(frozen=True)
class EmbedReport:
    documents: int
    chunks: int
    error: str | None = None  # why embedding stopped early, if it did


class SearchIndexes:
    """The keyword route and (once an embedder is loaded) the vector route of a store, over
    the local files: the ``SearchRoutes`` a ``Searcher`` runs."""

    def __init__(self, settings: Settings, store: Store, embedder: EmbedderFactory) -> None:
        self.settings = settings
        self.store = store
        self.keyword = KeywordIndex(settings.index_dir / "keyword")
        self._make_embedder = embedder
        self._embedder: Embedder | None = None
        self._embedder_loaded = False
        self._vectors: VectorIndexRoute | None = None

    @property
    def embedder(self) -> Embedder | None:
        """The embedder, loaded on first use (loading a model takes a moment)."""
        if not self._embedder_loaded:
            self._embedder = self._make_embedder()
            self._embedder_loaded = True
        return self._embedder

    @property
    def vectors(self) -> VectorIndexRoute | None:
        """The vector route of the current embedder; None when embeddings are off."""
        if self._vectors is None and self.embedder is not None:
            folder = self.settings.index_dir / "vectors" / _folder_name(self.embedder.vector_space)
            index = VectorIndex(folder, self.embedder.dimension)
            self._vectors = VectorIndexRoute(index, self.keyword)
        return self._vectors

    def add(self, document: Document, chunks: tuple[Chunk, ...]) -> None:
        self.keyword.add(document, chunks)

    def remove(self, document_id: str) -> None:
        self.keyword.delete(document_id)
        if self.vectors is not None:
            self.vectors.delete(document_id)

    def sync(self) -> int:
        """Index what the store has and the keyword index lacks; drop what the store lost.
        Returns how many documents were indexed again."""
        stored = {d.id: d for d in self.store.list_documents(Access.local())}
        indexed = self.keyword.document_ids()
        for gone in indexed - set(stored):
            self.remove(gone)
        missing = [stored[i] for i in set(stored) - indexed]
        entries = [(d, self.store.chunks(d.id)) for d in missing]
        entries = [(d, chunks) for d, chunks in entries if chunks]
        if entries:
            self.keyword.add_many(entries)
        return len(entries)

    def pending_vectors(self) -> list[Document]:
        """Stored documents that have chunks but no vectors yet, oldest first."""
        if self.vectors is None:
            return []
        done = self.vectors.document_ids()
        pending = [d for d in self.store.list_documents(Access.local()) if d.id not in done]
        return [d for d in reversed(pending) if self.store.chunks(d.id)]

    def embed(
        self, documents: list[Document], progress: Callable[[int], None] | None = None
    ) -> EmbedReport:
        """Embed the documents' chunks; stops at the first provider failure."""
        vectors, embedder = self.vectors, self.embedder
        if vectors is None or embedder is None:
            return EmbedReport(0, 0, "embeddings are off (ASKALONG_EMBEDDER=none)")
        done_docs = done_chunks = 0
        for document in documents:
            chunks = self.store.chunks(document.id)
            try:
                matrix = embedder.embed_passages(
                    [c.text for c in chunks], progress=_offset(progress, done_chunks)
                )
            except AskAlongError as exc:
                return EmbedReport(done_docs, done_chunks, str(exc))
            vectors.add(document.id, [c.id for c in chunks], matrix)
            done_docs, done_chunks = done_docs + 1, done_chunks + len(chunks)
        return EmbedReport(done_docs, done_chunks)

    def close(self) -> None:
        if self._vectors is not None:
            self._vectors.close()

    def __enter__(self) -> SearchIndexes:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _offset(progress: Callable[[int], None] | None, base: int) -> Callable[[int], None] | None:
    """A per-document progress callback that reports the running total."""
    if progress is None:
        return None
    report = progress
    return lambda done: report(base + done)


def _folder_name(embedder_name: str) -> str:
    """A model name as a folder name: vectors of different models never mix."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", embedder_name).strip("._") or "default"
