"""Sentence vectors remembered between answers: read-along follow-ups and neighbouring
questions see the same evidence sentences again, and embedding them is most of what the
offline answerer spends with an embedder.

``CachedEmbedder`` wraps any embedder; passage vectors are kept in a least-recently-used
map keyed by a hash of the text (the same words are the same vector whichever block they
sit in); queries go to ``inner.embed_query``, whose memory the searcher's searches of the
same text filled already. It belongs to one answerer: no global state.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np

from askalong.providers.base import Embedder, EmbedKind, WrappedReader

CACHED_SENTENCES = 4096  # ~6 MB of 384-dimensional float32 rows


class CachedEmbedder(Embedder):
    """``inner`` with its passage vectors remembered (at most ``size`` of them)."""

    def __init__(self, inner: Embedder, size: int = CACHED_SENTENCES) -> None:
        super().__init__(name=inner.name, dimension=inner.dimension)
        self.inner = inner
        self.size = size
        self._rows: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._reader = WrappedReader(lambda found: CachedEmbedder(found, size))

    def reader(self) -> Embedder | None:
        """The inner embedder's reader encoder, its vectors remembered as these are."""
        return self._reader.of(self.inner)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        if kind == "query":
            return np.stack([self.inner.embed_query(text) for text in texts])
        keys = [_key(text) for text in texts]
        missing = {
            key: text for key, text in zip(keys, texts, strict=True) if key not in self._rows
        }
        if missing:
            rows = self.inner.embed_passages(list(missing.values()))
            for key, row in zip(missing, rows, strict=True):
                self._rows[key] = row
        out = np.stack([self._rows[key] for key in keys])
        for key in keys:
            self._rows.move_to_end(key)
        while len(self._rows) > self.size:
            self._rows.popitem(last=False)
        return out

    def __len__(self) -> int:
        return len(self._rows)


def _key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
