"""BM25 of a question over a small collection of texts (pure): the passage model's
training searches its per-article libraries with it, and the never-seen benchmark's
``bm25p`` baseline ranks a document's paragraphs with it.

The formula and parameters are tantivy's (``index/pg_bm25``), over the keyword index's
tokens (``text.tokens.tokenize``)::

    score = Σ_t idf(t) · tf · (k1 + 1) / (tf + k1 · (1 - b + b · dl / avgdl))
    idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)),  k1 = 1.2, b = 0.75
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence

from askalong.text.tokens import tokenize

K1 = 1.2
B = 0.75


def bm25_scores(question: str, texts: Sequence[str]) -> list[float]:
    """BM25 of ``question`` against each of ``texts``, the texts being the collection."""
    docs = [_counts(t) for t in texts]
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / max(1, len(docs)) or 1.0
    asked = set(tokenize(question))
    df = {t: sum(1 for d in docs if t in d) for t in asked}
    idf = {t: math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5)) for t in asked}
    return [  # fsum: ``asked`` is a set, whose order changes with the hash seed
        math.fsum(
            idf[t] * d[t] * (K1 + 1) / (d[t] + K1 * (1 - B + B * n / average))
            for t in asked
            if t in d
        )
        for d, n in zip(docs, lengths, strict=True)
    ]


@functools.lru_cache(maxsize=65536)
def _counts(text: str) -> Counter[str]:
    """Each token's count in ``text``, remembered: a benchmark asks many questions of the
    same paragraphs."""
    return Counter(tokenize(text))
