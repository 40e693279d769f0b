"""A deterministic embedder for tests of the vector bookkeeping: each text's vector is
drawn from a generator seeded by the text's hash, so equal texts give equal vectors and
different texts nearly orthogonal ones; it counts the texts it was asked to embed."""

from __future__ import annotations

import hashlib
import threading

import numpy as np

from askalong.providers.base import Embedder, EmbedKind


class HashEmbedder(Embedder):
    def __init__(self, dimension: int = 32) -> None:
        super().__init__(name="hash-test", dimension=dimension)
        self.embedded = 0
        self._lock = threading.Lock()

    def vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        row = np.random.default_rng(seed).standard_normal(self.dimension).astype(np.float32)
        return row / np.linalg.norm(row)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        with self._lock:
            self.embedded += len(texts)
        return np.stack([self.vector(text) for text in texts])
