"""The shared embedder's turns: a request's passages (an answer's sentence scores) go
before a background embedding's next batches, which take the turn back only after, and
beside the background batch under way rather than after it; real threads, an embedder
that takes a moment per batch."""

from __future__ import annotations

import threading
import time

import numpy as np

from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.budget import CHARS_PER_HOLD, BudgetedEmbedder

BATCH_SECONDS = 0.05  # long enough that a loaded machine's scheduling is noise
LONG_BATCH_SECONDS = 1.5  # a batch of texts starting "long"


class Slow(Embedder):
    """Records when each batch started and ended (by its first text's first four
    letters), in order; each call takes ``BATCH_SECONDS`` (``LONG_BATCH_SECONDS``)."""

    def __init__(self) -> None:
        super().__init__(name="slow-test", dimension=4)
        self.events: list[tuple[str, str]] = []
        self.started = threading.Event()
        self._lock = threading.Lock()

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        name = texts[0][:4]
        with self._lock:
            self.events.append(("start", name))
        self.started.set()
        time.sleep(LONG_BATCH_SECONDS if name == "long" else BATCH_SECONDS)
        with self._lock:
            self.events.append(("end", name))
        return np.ones((len(texts), 4), dtype=np.float32)

    def calls(self) -> list[str]:
        return [name for event, name in self.events if event == "end"]


def in_background(shared: BudgetedEmbedder, texts: list[str]) -> threading.Thread:
    thread = threading.Thread(
        target=lambda: shared.embed_passages(texts, background=True), daemon=True
    )
    thread.start()
    return thread


def test_a_request_goes_before_the_rest_of_a_background_embedding() -> None:
    inner = Slow()
    shared = BudgetedEmbedder(inner)
    background = in_background(shared, ["bulk" + "x" * CHARS_PER_HOLD] * 30)  # 30 turns
    assert inner.started.wait(5)
    time.sleep(3 * BATCH_SECONDS)  # the background embedding is under way
    started = time.perf_counter()
    shared.embed_passages(["mine" + "y" * CHARS_PER_HOLD] * 5)  # five turns of its own
    waited = time.perf_counter() - started
    background.join(10)
    calls = inner.calls()
    assert calls.count("mine") == 5 and len(calls) == 35
    first = inner.events.index(("start", "mine"))
    last = len(inner.events) - inner.events[::-1].index(("end", "mine"))
    between = inner.events[first:last]
    assert ("start", "bulk") not in between, between  # no background batch began meanwhile
    assert [e for e in between if e[1] == "mine"] == [("start", "mine"), ("end", "mine")] * 5
    assert waited < 8 * BATCH_SECONDS  # its own five, one at a time


def test_a_request_runs_beside_the_background_batch_under_way() -> None:
    inner = Slow()
    shared = BudgetedEmbedder(inner)
    background = in_background(shared, ["long" + "x" * CHARS_PER_HOLD] * 2)  # two long turns
    assert inner.started.wait(5)
    started = time.perf_counter()
    shared.embed_passages(["mine"])
    waited = time.perf_counter() - started
    background.join(10)
    # Not behind the long batch under way (before: the rest of its 1.5 s); the second
    # long batch began only after the request.
    assert waited < LONG_BATCH_SECONDS / 3, waited
    assert inner.events.index(("end", "mine")) < inner.events.index(("start", "long"), 1)


def test_requests_alone_and_background_alone_get_every_vector() -> None:
    shared = BudgetedEmbedder(Slow())
    assert shared.embed_passages(["a", "b"]).shape == (2, 4)
    assert shared.embed_passages(["c"] * 3, background=True).shape == (3, 4)
