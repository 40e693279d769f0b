"""Cross-lingual questions simulated from monolingual pairs (no parallel QA data is
reachable here; XQuAD's translations are test only).

A Chinese question over English sentences (or the reverse) shares no terms with them:
every lexical column of ``features.COLUMNS`` that measures the question's terms in a
sentence reads 0, the question's ``chinese`` flag is the other language's, and the e5
cosines are lower and closer together than within one language. ``across_rows`` turns a
group's rows into that: lexical overlap zeroed, the flag flipped, the cosines mapped by
``c' = a + k * c`` (gaps scaled by ``k``), with ``a`` and ``k`` measured on ten
hand-written question/sentence pairs written in both languages (gold and non-gold
cosines, e5-small, 2026-12-04): English sentences asked in Chinese 0.875 → 0.809 (gold),
0.743 → 0.719 (others); Chinese sentences asked in English 0.923 → 0.805, 0.820 → 0.728.
"""

from __future__ import annotations

import numpy as np

from askalong.answer.scorer.features import COLUMNS

OVERLAP = (
    "coverage", "coverage_gap", "word_coverage", "pair_coverage", "coverage_before",
    "coverage_after", "coverage_window", "coverage_passage", "coverage_passage_gap",
    "character_share",
)  # fmt: skip
COSINES = ("cosine", "cosine_before", "cosine_after", "cosine_passage")
COSINE_GAPS = ("cosine_gap", "cosine_passage_gap")
# (a, k) by the language of the sentences: "en" = English sentences, a Chinese question.
SHIFT = {"en": (0.214, 0.68), "zh": (0.113, 0.75)}
_AT = {name: k for k, name in enumerate(COLUMNS)}


def across_rows(x: np.ndarray, language: np.ndarray) -> np.ndarray:
    """Rows of monolingual pairs (``language``: each row's set language) as if each
    question were asked in the other language."""
    out = x.copy()
    for name in OVERLAP:
        out[:, _AT[name]] = 0.0
    out[:, _AT["coverage_rank"]] = 1.0  # all tie at 0: every sentence ranks first
    out[:, _AT["new_share"]] = (out[:, _AT["new_share"]] > 0) | (out[:, _AT["new_terms"]] > 0)
    zh = np.char.startswith(language.astype(str), "zh")
    out[:, _AT["chinese"]] = (~zh).astype(out.dtype)
    for key, rows in (("zh", zh), ("en", ~zh)):
        a, k = SHIFT[key]
        for name in COSINES:
            out[rows, _AT[name]] = np.where(
                out[rows, _AT[name]] != 0, a + k * out[rows, _AT[name]], 0.0
            )
        for name in COSINE_GAPS:
            out[rows, _AT[name]] *= k
    return out


def across_language(language: str) -> str:
    """The label of a simulated group: the question's (new) language, "-across"."""
    return ("en" if language.startswith("zh") else "zh") + "-across"
