"""The search indexes beside the store, kept in step with it.

A document goes to the store first (one transaction), then to the keyword index, and is
searchable from then on; its vectors follow, which may take a while (or fail: the
document stays keyword-searchable and its vectors are retried by the next ``embed``, or
when the server next starts). ``sync`` repairs what a crash between those steps left: a
document the store has and the keyword index lacks is indexed again, index entries and
vectors of removed documents go.

Vectors carry the content key of the text they were computed from. A document written to
the store afresh has any vectors it had before marked dead (they were for another
chunking, say after a crash inside ``rm``); embedding then reuses only the vectors of
identical texts. An embedder holds a document alone while it embeds it (another one
skips it rather than waiting), so parallel adds never embed one document twice; the
index's shared claim is held only to check that the chunks did not change meanwhile and
to add the vectors, never while texts are embedded.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType

import numpy as np

from askalong.chunk.descriptions import embedded_text
from askalong.config import Settings
from askalong.errors import AskAlongError
from askalong.index.keyword import KeywordIndex
from askalong.index.vector_files import forget, live_documents
from askalong.index.vector_route import VectorIndexRoute
from askalong.index.vector_rows import FloatArray, content_key
from askalong.index.vectors import VectorIndex
from askalong.providers.base import Embedder
from askalong.store.base import Store
from askalong.types import Access, Chunk, Document

# Passages embedded between two progress reports (and between two chances to stop or to
# let a request's embedding go first): 64 left a long manual's bar still for over a
# minute on a loaded machine; the engine's cost per passage barely changes below it.
PROGRESS_BATCH = 16

EmbedderFactory = Callable[[], Embedder | None]
Embedded = Callable[[Document], None]  # told of each document given vectors


@dataclass(frozen=True)
class EmbedReport:
    documents: int
    chunks: int
    error: str | None = None  # why embedding stopped early, if it did
    reused: int = 0  # of ``chunks``, those whose vector was already stored for their text


@dataclass(frozen=True)
class _Plan:
    """A document's embedding: chunk id -> content key, the keys in chunk order, the
    texts still to embed, and the stored vectors reused, by key."""

    wanted: dict[str, str]
    keys: list[str]
    todo: list[str]
    known: dict[str, FloatArray]


class _Stopped(Exception):
    """Raised inside a batch callback when the caller asked embedding to stop."""


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
        self._loading = threading.Lock()  # a request and the background embedder may race
        self.vector_root = settings.index_dir / "vectors"
        # What runs once a document has vectors (the library's contradiction scan): every
        # way in (add, a job's last step, the server, a page read later) embeds here.
        self.after_embedding: list[Embedded] = []

    @property
    def embedder(self) -> Embedder | None:
        """The embedder, loaded on first use (loading a model takes a moment)."""
        with self._loading:
            if not self._embedder_loaded:
                self._embedder = self._make_embedder()
                self._embedder_loaded = True
            return self._embedder

    @property
    def vectors(self) -> VectorIndexRoute | None:
        """The vector route of the current embedder; None when embeddings are off."""
        embedder = self.embedder
        with self._loading:
            if self._vectors is None and embedder is not None:
                folder = self.vector_root / vector_folder_name(embedder.vector_space)
                index = VectorIndex(folder, embedder.dimension)
                self._vectors = VectorIndexRoute(index, self.keyword)
            return self._vectors

    def add(self, document: Document, chunks: tuple[Chunk, ...]) -> None:
        """Index a document just written to the store; vectors it had were for the text
        of an earlier copy, so they go (their identical texts are reused by ``embed``)."""
        self.keyword.add(document, chunks)
        forget(self.vector_root, [document.id])

    def remove(self, document_id: str) -> None:
        self.keyword.delete(document_id)
        forget(self.vector_root, [document_id])

    def sync(self) -> int:
        """Index what the store has and the keyword index lacks; drop what the store lost.
        Returns how many documents were indexed again."""
        stored = {d.id: d for d in self.store.list_documents(Access.local())}
        indexed = self.keyword.document_ids()
        for gone in indexed - set(stored):
            self.keyword.delete(gone)
        forget(self.vector_root, live_documents(self.vector_root) - set(stored))
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
        self,
        documents: list[Document],
        progress: Callable[[int], None] | None = None,
        stop: threading.Event | None = None,
    ) -> EmbedReport:
        """Give the documents' chunks vectors; stops at the first provider failure (or
        when ``stop`` is set, between batches)."""
        vectors, embedder = self.vectors, self.embedder
        if vectors is None or embedder is None:
            return EmbedReport(0, 0, "embeddings are off (ASKALONG_EMBEDDER=none)")
        done = EmbedReport(0, 0)
        for document in documents:
            step = _offset(progress, done.chunks, stop)
            try:
                if stop is not None and stop.is_set():
                    raise _Stopped
                chunks, reused = self._embed_one(vectors.index, embedder, document, step)
            except _Stopped:
                return _with_error(done, "stopped")
            except AskAlongError as exc:
                return _with_error(done, str(exc))
            if chunks:
                done = EmbedReport(
                    done.documents + 1, done.chunks + chunks, reused=done.reused + reused
                )
                for told in self.after_embedding:
                    told(document)
        return done

    def _embed_one(
        self,
        index: VectorIndex,
        embedder: Embedder,
        document: Document,
        progress: Callable[[int], None] | None,
    ) -> tuple[int, int]:
        """Embed what ``document`` lacks, holding the document alone (another embedder
        at it: skipped, nobody waits); the shared claim only for the short check and add.
        Returns (chunks given vectors, of them reused), (0, 0) when nothing was added."""
        with index.claim_document(document.id) as ours:
            if not ours:
                return 0, 0
            plan = self._plan(index, embedder, document)
            if plan is None:
                return 0, 0
            fresh = iter(
                embedder.embed_passages(
                    plan.todo, batch_size=PROGRESS_BATCH, progress=progress, background=True
                )
            )
            matrix = [plan.known[key] if key in plan.known else next(fresh) for key in plan.keys]
            with index.claim():  # a re-add or a removal meanwhile: these vectors are stale
                now = self._plan(index, embedder, document)
                if now is None or now.wanted != plan.wanted:
                    return 0, 0
                index.add(document.id, list(plan.wanted), np.stack(matrix), plan.keys)
        return len(plan.keys), len(plan.keys) - len(plan.todo)

    def _plan(self, index: VectorIndex, embedder: Embedder, document: Document) -> _Plan | None:
        """What ``document`` needs now; None when it needs nothing (or is gone)."""
        chunks = self.store.chunks(document.id)
        texts = [embedded_text(c) for c in chunks]  # a description goes first, if any
        keys = [content_key(embedder.vector_space, text) for text in texts]
        wanted = {c.id: key for c, key in zip(chunks, keys, strict=True)}
        if not chunks or index.live_keys(document.id) == wanted:
            return None
        if not self.store.has_document(document.id):  # removed since it was listed
            return None
        known = index.vectors_for(keys)
        todo = [text for text, key in zip(texts, keys, strict=True) if key not in known]
        return _Plan(wanted, keys, todo, known)

    def embed_pending(self, stop: threading.Event | None = None) -> EmbedReport:
        """Embed every stored document that has no vectors yet (those a killed server or
        an ``add --no-embed`` left)."""
        return self.embed(self.pending_vectors(), stop=stop)

    def close(self) -> None:
        if self._vectors is not None:
            self._vectors.close()

    def __enter__(self) -> SearchIndexes:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class BackgroundEmbedding:
    """Embeds, in a thread of its own, what is stored but has no vectors yet: when it
    starts (a server killed before its vectors were done resumes them) and whenever it is
    woken (a request that added a document wakes it and answers: requests never embed).
    ``stop`` asks it to finish between batches."""

    def __init__(self, indexes: SearchIndexes) -> None:
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


def _offset(
    progress: Callable[[int], None] | None, base: int, stop: threading.Event | None
) -> Callable[[int], None] | None:
    """A per-document batch callback that reports the running total and stops the
    embedding when ``stop`` is set."""
    if progress is None and stop is None:
        return None

    def step(done: int) -> None:
        if stop is not None and stop.is_set():
            raise _Stopped
        if progress is not None:
            progress(base + done)

    return step


def _with_error(report: EmbedReport, error: str) -> EmbedReport:
    return EmbedReport(report.documents, report.chunks, error, report.reused)


def vector_folder_name(embedder_name: str) -> str:
    """A model name as a folder name: vectors of different models never mix."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", embedder_name).strip("._") or "default"
