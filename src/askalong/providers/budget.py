"""One shared embedder, many requests: a budget so that none of them can starve the rest.

The server has one embedder (one model in memory, all cores). A 20 MB question once held
it for minutes and every search behind it timed out. ``BudgetedEmbedder`` wraps the
configured embedder with three limits:

- inputs are cut before they reach the model: a query to ``MAX_QUERY_CHARS`` (the
  question limit), a passage to ``MAX_PASSAGE_CHARS`` (far beyond any chunk), so one
  text costs a bounded time;
- a call holds the model for at most ``CHARS_PER_HOLD`` characters of text at a time
  (one text at least): a bulk embed of a long document lets others in between its
  small batches;
- a query waits for the model at most ``query_wait`` seconds and goes ahead of waiting
  passage batches; past the wait it raises ``EmbedderBusy`` (a ``ProviderError``), and the
  searcher answers from the keyword route alone, saying so in its notes, while
  the hits' ``mode`` says ``keyword``. Passages (background embedding, the answerer's
  sentence scores) wait their turn without a deadline.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from askalong.errors import ProviderError
from askalong.providers.base import Embedder, EmbedKind

MAX_QUERY_CHARS = 2_000
MAX_PASSAGE_CHARS = 8_000
CHARS_PER_HOLD = 4_000  # a fraction of a second of the local model on one core
QUERY_WAIT_SECONDS = 2.0


class EmbedderBusy(ProviderError):
    """The shared embedder was not free within the request's budget."""


class _Slot:
    """The model, held by one call at a time; queries first among those waiting."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._busy = False
        self._queries_waiting = 0

    def acquire(self, *, query: bool, timeout: float | None) -> bool:
        with self._changed:
            self._queries_waiting += query
            try:
                free = self._changed.wait_for(self._free_for(query), timeout)
            finally:
                self._queries_waiting -= query
            if free:
                self._busy = True
            return free

    def _free_for(self, query: bool) -> Callable[[], bool]:
        return lambda: not self._busy and (query or self._queries_waiting == 0)

    def release(self) -> None:
        with self._changed:
            self._busy = False
            self._changed.notify_all()


class BudgetedEmbedder(Embedder):
    """``inner`` behind the budget (module docstring); its vectors are ``inner``'s."""

    def __init__(self, inner: Embedder, *, query_wait: float = QUERY_WAIT_SECONDS) -> None:
        super().__init__(name=inner.name, dimension=0)
        self.inner = inner
        self.query_wait = query_wait
        self._slot = _Slot()

    # Asked of ``inner`` each time: a remote embedder learns its dimension on first use.
    @property
    def dimension(self) -> int:
        return self.inner.dimension

    @property
    def vector_space(self) -> str:
        return self.inner.vector_space

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        limit = MAX_QUERY_CHARS if kind == "query" else MAX_PASSAGE_CHARS
        cut = [text[:limit] for text in texts]
        parts = [self._held(batch, kind) for batch in _holds(cut)]
        return np.concatenate(parts) if parts else np.zeros((0, self.dimension), np.float32)

    def _held(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        query = kind == "query"
        if not self._slot.acquire(query=query, timeout=self.query_wait if query else None):
            raise EmbedderBusy(
                f"the embedder was busy for {self.query_wait:g} s; answered by keyword only",
                source=self.name,
            )
        try:
            return self.inner._embed(texts, kind)
        finally:
            self._slot.release()


def _holds(texts: list[str]) -> list[list[str]]:
    """Consecutive batches of at most ``CHARS_PER_HOLD`` characters (a longer text alone)."""
    batches: list[list[str]] = []
    size = CHARS_PER_HOLD
    for text in texts:
        if size + len(text) > CHARS_PER_HOLD:
            batches.append([])
            size = 0
        batches[-1].append(text)
        size += len(text)
    return batches
