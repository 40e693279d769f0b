"""Giving documents' chunks vectors, reusing the stored vector of any identical text: the
one algorithm both backends' routes run (``index/routes.py``), over ``KeyedVectors``.

Vectors carry the content key of the text they were computed from. A document written to
the store afresh has any vectors it had before set aside (they were for another chunking,
say after a crash inside ``rm``); embedding then reuses only the vectors of identical
texts. An embedder holds a document alone while it embeds it (another one skips it
rather than waiting), so parallel adds, threads or worker processes, never embed one
document twice; the shared claim is held only to check that the chunks did not change
meanwhile and to add the vectors, never while texts are embedded.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from askalong.chunk.descriptions import embedded_text
from askalong.errors import AskAlongError
from askalong.index.vector_rows import FloatArray, content_key
from askalong.providers.base import Embedder
from askalong.store.base import Store
from askalong.types import Document

# Passages embedded between two progress reports (and between two chances to stop or to
# let a request's embedding go first): 64 left a long manual's bar still for over a
# minute on a loaded machine; the engine's cost per passage barely changes below it.
PROGRESS_BATCH = 16

Embedded = Callable[[Document], None]  # told of each document given vectors


@dataclass(frozen=True)
class EmbedReport:
    documents: int
    chunks: int
    error: str | None = None  # why embedding stopped early, if it did
    reused: int = 0  # of ``chunks``, those whose vector was already stored for their text


class KeyedVectors(Protocol):
    """Vectors stored with their texts' content keys: the local ``VectorIndex`` and the
    PostgreSQL vector route."""

    def claim(self) -> AbstractContextManager[None]:
        """The short claim for checking and adding a document's vectors."""
        ...

    def claim_document(self, document_id: str) -> AbstractContextManager[bool]:
        """The document held alone while it is embedded; False: another holds it."""
        ...

    def live_keys(self, document_id: str) -> dict[str, str]:
        """Chunk id -> content key of the document's searchable vectors."""
        ...

    def vectors_for(self, keys: Collection[str]) -> dict[str, FloatArray]:
        """Stored vectors (set aside ones too) computed from these keys."""
        ...

    def add(
        self,
        document_id: str,
        chunk_ids: Sequence[str],
        vectors: npt.ArrayLike,
        keys: Sequence[str] | None = None,
    ) -> None:
        """Store the document's vectors with their keys, replacing what it had."""
        ...

    def update_graph(self) -> None:
        """Bring a nearest-neighbour graph kept apart up to the rows now."""
        ...


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


@dataclass
class Embedding:
    """Embeds documents of ``store`` into ``vectors`` with ``embedder``; ``told`` hears of
    each document given vectors."""

    store: Store
    vectors: KeyedVectors
    embedder: Embedder
    told: Sequence[Embedded] = ()

    def run(
        self,
        documents: Sequence[Document],
        progress: Callable[[int], None] | None = None,
        stop: threading.Event | None = None,
    ) -> EmbedReport:
        """Give the documents' chunks vectors; stops at the first provider failure (or
        when ``stop`` is set, between batches)."""
        done = EmbedReport(0, 0)
        for document in documents:
            step = _offset(progress, done.chunks, stop)
            try:
                if stop is not None and stop.is_set():
                    raise _Stopped
                chunks, reused = self._one(document, step)
            except _Stopped:
                return _with_error(done, "stopped")
            except AskAlongError as exc:
                return _with_error(done, str(exc))
            if chunks:
                done = EmbedReport(
                    done.documents + 1, done.chunks + chunks, reused=done.reused + reused
                )
                for told in self.told:
                    told(document)
        if done.chunks:
            self.vectors.update_graph()
        return done

    def _one(self, document: Document, progress: Callable[[int], None] | None) -> tuple[int, int]:
        """Embed what ``document`` lacks, holding the document alone (another embedder
        at it: skipped, nobody waits); the shared claim only for the short check and add.
        Returns (chunks given vectors, of them reused), (0, 0) when nothing was added."""
        with self.vectors.claim_document(document.id) as ours:
            if not ours:
                return 0, 0
            plan = self._plan(document)
            if plan is None:
                return 0, 0
            fresh = iter(
                self.embedder.embed_passages(
                    plan.todo, batch_size=PROGRESS_BATCH, progress=progress, background=True
                )
            )
            matrix = [plan.known[key] if key in plan.known else next(fresh) for key in plan.keys]
            with self.vectors.claim():  # a re-add or a removal meanwhile: these are stale
                now = self._plan(document)
                if now is None or now.wanted != plan.wanted:
                    return 0, 0
                self.vectors.add(document.id, list(plan.wanted), np.stack(matrix), plan.keys)
        return len(plan.keys), len(plan.keys) - len(plan.todo)

    def _plan(self, document: Document) -> _Plan | None:
        """What ``document`` needs now; None when it needs nothing (or is gone)."""
        chunks = self.store.chunks(document.id)
        texts = [embedded_text(c) for c in chunks]  # a description goes first, if any
        keys = [content_key(self.embedder.vector_space, text) for text in texts]
        wanted = {c.id: key for c, key in zip(chunks, keys, strict=True)}
        if not chunks or self.vectors.live_keys(document.id) == wanted:
            return None
        if not self.store.has_document(document.id):  # removed since it was listed
            return None
        known = self.vectors.vectors_for(keys)
        todo = [text for text, key in zip(texts, keys, strict=True) if key not in known]
        return _Plan(wanted, keys, todo, known)


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
