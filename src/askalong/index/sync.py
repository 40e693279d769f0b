"""The search indexes beside the store in the home's files: tantivy and the memory-mapped
vectors (``StoreIndexes``, ``index/routes.py``, keeps them in step with the store), and
the background embedder of either backend.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection

from askalong.config import Settings
from askalong.errors import AskAlongError
from askalong.index.base import VectorRoute
from askalong.index.embedding import EmbedReport, KeyedVectors
from askalong.index.keyword import KeywordIndex
from askalong.index.routes import EmbedderFactory, StoreIndexes
from askalong.index.vector_files import forget, live_documents
from askalong.index.vector_route import VectorIndexRoute
from askalong.index.vectors import VectorIndex
from askalong.providers.base import Embedder
from askalong.store.base import Store
from askalong.types import Document


class SearchIndexes(StoreIndexes):
    """The keyword index and the vector files of a store under ``settings.index_dir``."""

    def __init__(self, settings: Settings, store: Store, embedder: EmbedderFactory) -> None:
        super().__init__(store, embedder)
        self.settings = settings
        self.keyword = KeywordIndex(settings.index_dir / "keyword")
        self.vector_root = settings.index_dir / "vectors"

    @property
    def vectors(self) -> VectorIndexRoute | None:
        vectors = super().vectors
        assert vectors is None or isinstance(vectors, VectorIndexRoute)
        return vectors

    def _open_vectors(self, embedder: Embedder) -> VectorIndexRoute:
        folder = self.vector_root / vector_folder_name(embedder.vector_space)
        return VectorIndexRoute(VectorIndex(folder, embedder.dimension), self.keyword)

    def _keyed(self, vectors: VectorRoute) -> KeyedVectors:
        assert isinstance(vectors, VectorIndexRoute)
        return vectors.index

    def forget_vectors(self, document_ids: Collection[str]) -> None:
        forget(self.vector_root, document_ids)

    def drop_vectors(self, document_ids: Collection[str]) -> None:
        # Dead rows go at the next compaction; they are never searched meanwhile.
        forget(self.vector_root, document_ids)

    def vector_documents(self) -> set[str]:
        return live_documents(self.vector_root)

    def close(self) -> None:
        super().close()
        if isinstance(self._vectors, VectorIndexRoute):
            self._vectors.close()


class BackgroundEmbedding:
    """Embeds, in a thread of its own, what is stored but has no vectors yet: when it
    starts (a server killed before its vectors were done resumes them) and whenever it is
    woken (a request that added a document wakes it and answers: requests never embed).
    ``stop`` asks it to finish between batches."""

    def __init__(self, indexes: StoreIndexes) -> None:
        self._indexes = indexes
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._asked: dict[str, Document] = {}  # documents with vectors that gained chunks
        self._asking = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="askalong-embed", daemon=True)
        self.report: EmbedReport | None = None

    def start(self) -> None:
        self._thread.start()

    def wake(self, document: Document | None = None) -> None:
        """Look for documents without vectors again, and ``document`` (one that has
        vectors and gained chunks: a page read), once the round at hand is done."""
        if document is not None:
            with self._asking:
                self._asked[document.id] = document
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()  # a wake during the round below makes another round
            try:
                self.report = self._indexes.embed(self._round(), stop=self._stop)
            except AskAlongError as exc:  # keyword search keeps working; the next wake retries
                self.report = EmbedReport(0, 0, str(exc))
            self._wake.wait()

    def _round(self) -> list[Document]:
        """The documents to embed now: those asked for, and those without vectors but for
        the ones whose ingestion job is still running (its worker embeds them)."""
        with self._asking:
            asked, self._asked = self._asked, {}
        pending = self._indexes.pending_vectors()
        known = {d.id for d in pending}
        jobs = self._indexes.store.jobs(list(known)) if known else []
        running = {j.document_id for j in jobs if not j.finished}
        ours = [d for d in pending if d.id not in running]
        return ours + [d for d in asked.values() if d.id not in known]

    def stop(self, timeout: float = 30.0) -> bool:
        """Ask the thread to stop and wait up to ``timeout``; whether it ended."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()


def vector_folder_name(embedder_name: str) -> str:
    """A model name as a folder name: vectors of different models never mix."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", embedder_name).strip("._") or "default"
