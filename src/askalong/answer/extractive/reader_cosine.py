"""The reader encoder's question-sentence cosines, a column of the learned answerer's rank
head (``RANK_COLUMNS``' ``reader_cosine``).

The encoder (``providers/local/e5/reader.py``: e5 with its top layers tuned on readers'
questions) comes with the answerer's embedder (``Embedder.reader``: the bundled model's,
on its engine and cache), loads at the first question that needs it, and its sentence
vectors are remembered as the answerer's e5 vectors are (``sentence_cache``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from askalong.providers.base import Embedder

log = logging.getLogger(__name__)


def reader_cosines(question: str, sentences: Sequence[str], embedder: Embedder) -> np.ndarray:
    """The cosine of ``question`` (as a query) to each sentence (as a passage) under
    ``embedder``'s reader encoder; 0 where it has none (the package's own engine: the
    rank head then orders by its other columns)."""
    reader = embedder.reader() if sentences else None
    if reader is None:
        if sentences:
            log.info("no reader encoder with the %s embedder", embedder.name)
        return np.zeros(len(sentences), dtype=np.float32)
    vectors = reader.embed_passages(list(sentences))
    return (vectors @ reader.embed_query(question)).astype(np.float32)
