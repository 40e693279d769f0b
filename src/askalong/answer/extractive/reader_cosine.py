"""The reader encoder's question-sentence cosines, a column of the learned answerer's rank
head (``RANK_COLUMNS``' ``reader_cosine``).

The encoder (``providers/local/e5/reader.py``: e5 with its top layers tuned on readers'
questions) loads at the first question that needs it, once per process, and its sentence
vectors are remembered as the answerer's e5 vectors are (``sentence_cache``): follow-ups
and neighbouring questions see the same sentences again.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence

import numpy as np

from askalong.answer.extractive.sentence_cache import CachedEmbedder

_LOADING = threading.Lock()


def reader_cosines(question: str, sentences: Sequence[str]) -> np.ndarray:
    """The cosine of ``question`` (as a query) to each sentence (as a passage)."""
    if not sentences:
        return np.zeros(0, dtype=np.float32)
    reader = _reader()
    vectors = reader.embed_passages(list(sentences))
    return (vectors @ reader.embed_query(question)).astype(np.float32)


@functools.cache
def _cached() -> CachedEmbedder:
    from askalong.config import load_settings
    from askalong.providers.local.embedder import reader_embedder

    return CachedEmbedder(reader_embedder(load_settings()))


def _reader() -> CachedEmbedder:
    with _LOADING:  # one load, whichever answering thread asks first
        return _cached()
