"""One shared embedder, many requests: a budget so that none of them can starve the rest.

The server has one embedder (one model in memory, all cores). A 20 MB question once held
it for minutes and every search behind it timed out. ``BudgetedEmbedder`` wraps the
configured embedder with three limits:

- inputs are cut before they reach the model: a query to ``MAX_QUERY_CHARS`` (the
  question limit), a passage to ``MAX_PASSAGE_CHARS`` (far beyond any chunk), so one
  text costs a bounded time;
- passages (background embedding, the answerer's sentence scores) run one batch at a
  time, at most ``CHARS_PER_HOLD`` characters (one text at least) a batch, so bulk
  embeds queue behind each other in small steps instead of taking every core at once;
  a request's passages (``background=False``: an answer's sentence scores) go before
  background batches, all of its batches in a row, beside the one under way: with a
  plain lock, each of them waited behind background ones, and a question asked while a
  paper was embedded took 47 s (measured, issue 14);
- queries do not queue behind passages (the engines run calls side by side: measured,
  a query during a bulk call took 0.14 s against 0.01 s alone), but at most
  ``QUERY_SLOTS`` run at once, and a query waits for a slot at most ``query_wait``
  seconds; past that it raises ``EmbedderBusy`` (a ``ProviderError``) and the searcher
  answers from the keyword route alone, saying so in its notes (the hits' ``mode`` is
  ``keyword``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from askalong.errors import ProviderError
from askalong.providers.base import Embedder, EmbedKind, WrappedReader

MAX_QUERY_CHARS = 2_000
MAX_PASSAGE_CHARS = 8_000
CHARS_PER_HOLD = 4_000  # a fraction of a second of the local model on one core
QUERY_WAIT_SECONDS = 2.0
QUERY_SLOTS = 4


class EmbedderBusy(ProviderError):
    """The shared embedder was not free within the request's budget."""


class BudgetedEmbedder(Embedder):
    """``inner`` behind the budget (module docstring); its vectors are ``inner``'s."""

    def __init__(self, inner: Embedder, *, query_wait: float = QUERY_WAIT_SECONDS) -> None:
        super().__init__(name=inner.name, dimension=0)
        self.inner = inner
        self.query_wait = query_wait
        self._queries = threading.BoundedSemaphore(QUERY_SLOTS)
        self._passages = PassageTurns()
        self._background = threading.local()  # set while this thread embeds in bulk
        self._reader = WrappedReader(lambda found: BudgetedEmbedder(found, query_wait=query_wait))

    # Asked of ``inner`` each time: a remote embedder learns its dimension on first use.
    @property
    def dimension(self) -> int:
        return self.inner.dimension

    @property
    def vector_space(self) -> str:
        return self.inner.vector_space

    def reader(self) -> Embedder | None:
        """``inner``'s reader encoder behind a budget of its own, so the learned answer's
        rank head reads it on every route."""
        return self._reader.of(self.inner)

    def embed_passages(
        self,
        texts: Sequence[str],
        batch_size: int = 64,
        progress: Callable[[int], None] | None = None,
        *,
        background: bool = False,
    ) -> np.ndarray:
        self._background.on = background
        try:
            return super().embed_passages(texts, batch_size, progress)
        finally:
            self._background.on = False

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        limit = MAX_QUERY_CHARS if kind == "query" else MAX_PASSAGE_CHARS
        cut = [text[:limit] for text in texts]
        if kind == "passage" and not getattr(self._background, "on", False):
            with self._passages.request():  # every batch of it before background ones
                parts = [self._held(batch, kind) for batch in _holds(cut)]
        else:
            parts = [self._held(batch, kind) for batch in _holds(cut)]
        return np.concatenate(parts) if parts else np.zeros((0, self.dimension), np.float32)

    def _held(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        if kind == "passage":
            with self._passages.turn(background=getattr(self._background, "on", False)):
                return self.inner._embed(texts, kind)
        if not self._queries.acquire(timeout=self.query_wait):
            raise EmbedderBusy(
                f"the embedder was busy for {self.query_wait:g} s; answered by keyword only",
                source=self.name,
            )
        try:
            return self.inner._embed(texts, kind)
        finally:
            self._queries.release()


class PassageTurns:
    """Background batches one at a time, and none while a request is embedding (all its
    batches, from the first wait to the last): a request is short, and a person waits for
    it, so background batches may wait while requests keep coming. A request's batches go
    one at a time too, but beside a background batch already under way rather than after
    it: waiting for it cost a question asked while a paper was embedded the rest of a
    batch of the bulk embedding, 3 s of its 7 s at load 15 (``benchmarks/first_answer.py``)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._busy = {True: False, False: False}  # a batch under way, by ``background``
        self._requests = 0  # requests between their first batch's wait and their last

    @contextmanager
    def request(self) -> Iterator[None]:
        with self._changed:
            self._requests += 1
        try:
            yield
        finally:
            with self._changed:
                self._requests -= 1
                self._changed.notify_all()

    @contextmanager
    def turn(self, *, background: bool) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: self._free(background))
            self._busy[background] = True
        try:
            yield
        finally:
            with self._changed:
                self._busy[background] = False
                self._changed.notify_all()

    def _free(self, background: bool) -> bool:
        if background:
            return not (self._busy[True] or self._busy[False] or self._requests)
        return not self._busy[False]


def _holds(texts: list[str]) -> list[list[str]]:
    """Consecutive batches of at most ``CHARS_PER_HOLD`` characters (a longer text alone)."""
    batches: list[list[str]] = []
    size = 0
    for text in texts:
        if not batches or size + len(text) > CHARS_PER_HOLD:
            batches.append([])
            size = 0
        batches[-1].append(text)
        size += len(text)
    return batches
