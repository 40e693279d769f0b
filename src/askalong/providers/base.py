"""The ``Embedder`` ABC: one abstract method, batching and helpers in the base class.

Every embedder returns float32 rows of unit length, so a dot product is a cosine.
E5-style models embed a search query and a stored passage differently; ``kind``
says which form is wanted and each provider maps it to its own convention.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np

from askalong.errors import ProviderError

EmbedKind = Literal["query", "passage"]
# Query vectors remembered per embedder: one question's searches (the knowledge base, then
# its best pages) and its extractive answer embed the same text, and the chat agent asks
# each part so; a few dozen cover every part of the questions in flight.
REMEMBERED_QUERIES = 64

__all__ = ["EmbedKind", "Embedder", "ProviderError", "WrappedReader", "normalise", "utf8_safe"]


class Embedder(ABC):
    """Text to unit-length float32 vectors."""

    def __init__(self, *, name: str, dimension: int) -> None:
        self._name = name
        self._dimension = dimension

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def vector_space(self) -> str:
        """Which vectors these are: engines of one model that pass the self-check share it,
        so switching engines does not re-embed a library."""
        return self._name

    @abstractmethod
    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        """Embed ``texts``: a ``(len(texts), dimension)`` float32 array of unit rows."""

    def reader(self) -> Embedder | None:
        """The reader encoder that goes with these vectors (the bundled model's, with its
        top layers tuned on readers' questions: ``local/e5/reader.py``), if it has one."""
        return None

    def embed_passages(
        self,
        texts: Sequence[str],
        batch_size: int = 64,
        progress: Callable[[int], None] | None = None,
        *,
        background: bool = False,
    ) -> np.ndarray:
        """Embed stored passages in batches; ``progress`` gets the count done so far.
        ``background``: a bulk embedding no one waits for, which a shared embedder lets
        requests go before (``budget.py``); others ignore it."""
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        items = list(texts)
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts = []
        for start in range(0, len(items), batch_size):
            batch = items[start : start + batch_size]
            parts.append(self._checked(batch, "passage"))
            if progress is not None:
                progress(start + len(batch))
        return np.concatenate(parts)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query: a ``(dimension,)`` float32 vector (read-only: the same
        text asked again soon is answered from memory, ``REMEMBERED_QUERIES``)."""
        memo, lock = self._query_memo()
        with lock:
            known = memo.get(text)
            if known is not None:
                memo.move_to_end(text)
                return known
        vector = self._checked([text], "query")[0]
        vector.setflags(write=False)
        with lock:
            memo[text] = vector
            while len(memo) > REMEMBERED_QUERIES:
                memo.popitem(last=False)
        return vector

    def _query_memo(self) -> tuple[OrderedDict[str, np.ndarray], threading.Lock]:
        # made on first use: a subclass need not call ``__init__`` for it
        held = self.__dict__.get("_remembered_queries")
        if held is None:
            held = self.__dict__.setdefault(
                "_remembered_queries", (OrderedDict(), threading.Lock())
            )
        return held

    def _checked(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        vectors = self._embed(texts, kind)
        if vectors.shape != (len(texts), self.dimension):
            raise ProviderError(
                f"expected {len(texts)} vectors of {self.dimension}, got shape {vectors.shape}",
                source=self.name,
            )
        return normalise(vectors)


class WrappedReader:
    """A wrapper's reader encoder: ``inner``'s, wrapped by ``wrap`` once. No lock is held
    while ``inner`` builds it (a second caller meanwhile asks ``inner`` too, which hands
    both the same encoder; the first wrapping made is kept)."""

    def __init__(self, wrap: Callable[[Embedder], Embedder]) -> None:
        self._wrap = wrap
        self._made: Embedder | None = None
        self._lock = threading.Lock()

    def of(self, inner: Embedder) -> Embedder | None:
        with self._lock:
            if self._made is not None:
                return self._made
        found = inner.reader()
        if found is None:
            return None
        with self._lock:
            if self._made is None:
                self._made = self._wrap(found)
            return self._made


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero), as float32."""
    rows = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, np.float32(1e-12))


def utf8_safe(text: str) -> str:
    """The text as the C engine sees it: lone surrogates replaced, cut at the first NUL."""
    clean = text.encode("utf-8", "replace").decode("utf-8")
    return clean.split("\0", 1)[0]
