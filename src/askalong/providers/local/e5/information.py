"""How much a word says, by the package's own unigram language model: the negative log
probability (nats) of the word's best segmentation into e5's SentencePiece pieces, whose
scores are the pieces' log probabilities in the model's training text. "the" costs ~7,
"email" ~11, "wayland" ~21, "benjamini" ~29: a word the reader names that few texts use
weighs more than a common one. The refusal head reads it (``refusal_row.UNSAID``): a rare
word the evidence never holds marks a question the document does not cover.

The tokenizer is the loaded model's when an e5 embedder started in this process (``offer``), so
its edge table and its cache are shared; else one is built at the first call (~1 CPU-s).
"""

from __future__ import annotations

import functools
import threading

import numpy as np

from askalong.providers.local.e5.tokenizer import Tokenizer

_lock = threading.Lock()
_offered: list[tuple[Tokenizer, np.ndarray]] = []


def offer(tokenizer: Tokenizer) -> None:
    """Use ``tokenizer`` (a loaded model's) unless one is in use already."""
    with _lock:
        if not _offered:
            _offered.append((tokenizer, tokenizer.vocabulary.scores))


def _pieces() -> tuple[Tokenizer, np.ndarray]:
    with _lock:
        if not _offered:
            from askalong.providers.local.e5.file import read_model_file
            from askalong.providers.local.e5.loaded import PackageModel

            vocabulary = read_model_file(PackageModel.installed().path).vocabulary
            _offered.append((Tokenizer(vocabulary), vocabulary.scores))
        return _offered[0]


@functools.lru_cache(maxsize=65536)
def word_information(word: str) -> float:
    """``word``'s information in nats (0 for an empty word)."""
    if not word.strip():
        return 0.0
    tokenizer, scores = _pieces()
    ids = tokenizer.content_ids(word)
    return float(-scores[ids].sum()) if ids else 0.0
