"""The shared embedder's turns: a request's passages (an answer's sentence scores) go
before a background embedding's next batches, which take the turn back only after; real
threads, an embedder that takes a moment per batch."""

from __future__ import annotations

import threading
import time

import numpy as np

from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.budget import CHARS_PER_HOLD, BudgetedEmbedder

BATCH_SECONDS = 0.02


class Slow(Embedder):
    """Records which texts it embedded, in order; each call takes ``BATCH_SECONDS``."""

    def __init__(self) -> None:
        super().__init__(name="slow-test", dimension=4)
        self.calls: list[str] = []
        self.started = threading.Event()

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        self.started.set()
        time.sleep(BATCH_SECONDS)
        self.calls.append(texts[0][:4])
        return np.ones((len(texts), 4), dtype=np.float32)


def test_a_request_goes_before_the_rest_of_a_background_embedding() -> None:
    inner = Slow()
    shared = BudgetedEmbedder(inner)
    bulk = ["bulk" + "x" * CHARS_PER_HOLD] * 60  # one hold each: 60 turns
    background = threading.Thread(
        target=lambda: shared.embed_passages(bulk, background=True), daemon=True
    )
    background.start()
    assert inner.started.wait(5)
    time.sleep(3 * BATCH_SECONDS)  # the background embedding is under way
    started = time.perf_counter()
    shared.embed_passages(["mine" + "y" * CHARS_PER_HOLD] * 5)  # five turns of its own
    waited = time.perf_counter() - started
    background.join(10)
    assert inner.calls.count("mine") == 5 and len(inner.calls) == 65
    first = inner.calls.index("mine")
    assert inner.calls[first : first + 5] == ["mine"] * 5, inner.calls  # none in between
    assert waited < 9 * BATCH_SECONDS  # its own five and the one under way


def test_requests_alone_and_background_alone_get_every_vector() -> None:
    shared = BudgetedEmbedder(Slow())
    assert shared.embed_passages(["a", "b"]).shape == (2, 4)
    assert shared.embed_passages(["c"] * 3, background=True).shape == (3, 4)
