"""An embedder loaded at its first use, for a process that may never embed.

Loading the local model costs ~0.15 CPU-s and ~80 MB resident (ONNX Runtime's session
most of it); ``askalong serve`` loaded it at start and held it while idle (issue 28).
``DeferredEmbedder`` knows the name, dimension and vector space up front (what opening
the vector route and listing what lacks vectors need) and loads the embedder when
something is embedded. The loaded embedder must have that vector space and dimension,
else vectors of two models would mix: a mismatch is a ``ProviderError``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from askalong.providers.base import Embedder, EmbedKind, ProviderError


class DeferredEmbedder(Embedder):
    def __init__(
        self, load: Callable[[], Embedder], *, name: str, dimension: int, vector_space: str
    ) -> None:
        super().__init__(name=name, dimension=dimension)
        self._load = load
        self._space = vector_space
        self._loaded: Embedder | None = None
        self._loading = threading.Lock()

    @property
    def vector_space(self) -> str:
        return self._space

    @property
    def is_loaded(self) -> bool:
        return self._loaded is not None

    def loaded(self) -> Embedder:
        """The embedder, loaded now if it is not yet (once, whichever thread asks)."""
        with self._loading:
            if self._loaded is None:
                self._loaded = self._checked_load()
            return self._loaded

    def _checked_load(self) -> Embedder:
        embedder = self._load()
        found = (embedder.vector_space, embedder.dimension)
        if found != (self._space, self.dimension):
            raise ProviderError(
                f"the embedder loaded has vector space {found[0]!r} of dimension {found[1]}, "
                f"not {self._space!r} of {self.dimension}",
                source=self.name,
            )
        return embedder

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        return self.loaded()._embed(texts, kind)

    def reader(self) -> Embedder | None:
        return self.loaded().reader()
