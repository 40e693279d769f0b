"""``DeferredEmbedder``: known before it loads, loaded once at the first embedding (whichever
thread asks), and refused when what loads is another vector space."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from askalong.errors import ProviderError
from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.deferred import DeferredEmbedder


class Counting(Embedder):
    def __init__(self, space: str = "space", dimension: int = 4) -> None:
        super().__init__(name=space, dimension=dimension)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        return np.tile(np.arange(1.0, self.dimension + 1, dtype=np.float32), (len(texts), 1))


def deferred(loads: list[Embedder], space: str = "space", dimension: int = 4) -> DeferredEmbedder:
    def load() -> Embedder:
        loads.append(Counting(space, dimension))
        return loads[-1]

    return DeferredEmbedder(load, name="model-fast", dimension=4, vector_space="space")


def test_nothing_loads_until_something_is_embedded() -> None:
    loads: list[Embedder] = []
    embedder = deferred(loads)
    assert (embedder.name, embedder.dimension, embedder.vector_space) == ("model-fast", 4, "space")
    assert loads == [] and not embedder.is_loaded
    vector = embedder.embed_query("a question")
    np.testing.assert_allclose(vector, loads[0].embed_query("a question"))
    assert embedder.is_loaded and len(loads) == 1


def test_threads_asking_at_once_load_it_once() -> None:
    loads: list[Embedder] = []
    embedder = deferred(loads)
    threads = [
        threading.Thread(target=embedder.embed_passages, args=([f"text {i}"],)) for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1


@pytest.mark.parametrize(("space", "dimension"), [("other", 4), ("space", 8)])
def test_another_vector_space_is_refused(space: str, dimension: int) -> None:
    embedder = deferred([], space, dimension)
    with pytest.raises(ProviderError, match="vector space"):
        embedder.embed_query("a question")
