"""Features of (question, retrieved passage) pairs, shared by training and run time (pure).

The passage model chooses the answer's passage among the top retrieved ones before any
sentence is scored. Its columns are what the search knew (each route's rank and score,
the fused score's gap to the best) next to what the passage holds of the question (the
IDF-weighted share of its terms in the passage, in its heading, in its best sentence)
and how close it is in meaning (the vector route's cosine). Nothing about any one
document; ``training/passage_pairs.py`` builds the same ``Passage`` values from public QA
sets, ``answer/extractive/passage_choice.py`` from the answerer's context units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from askalong.answer.scorer.features import covered_share, idf_weights
from askalong.text.scripts import HAN_RE
from askalong.text.tokens import terms_of

PASSAGE_COLUMNS = (
    "fused_rank",
    "fused_gap",
    "keyword_rank",
    "keyword_ratio",
    "vector_rank",
    "cosine",
    "cosine_gap",
    "coverage",
    "coverage_gap",
    "heading_coverage",
    "sentence_coverage",
    "length",
    "chinese",
)
PASSAGE_SUMMARY = (
    "top_score",
    "margin",
    "top_coverage",
    "top_sentence_coverage",
    "top_cosine",
    "best_coverage",
    "best_cosine",
    "chinese",
)


@dataclass(frozen=True)
class Passage:
    """One retrieved passage as the search returned it (in fused order): its text, its
    sentences, its heading (section path) and each route's evidence (None: that route did
    not find it or did not run)."""

    text: str
    sentences: tuple[str, ...]
    heading: str
    fused_score: float
    keyword_rank: int | None = None
    keyword_score: float | None = None
    vector_rank: int | None = None
    vector_score: float | None = None


def passage_features(question: str, passages: Sequence[Passage]) -> np.ndarray:
    """One row of ``PASSAGE_COLUMNS`` per passage (given in fused order)."""
    if not passages:
        return np.zeros((0, len(PASSAGE_COLUMNS)), dtype=np.float32)
    asked = set(terms_of(question))
    held = [frozenset(terms_of(p.text)) for p in passages]
    weight = idf_weights(asked, held)
    coverage = np.array([covered_share(weight, t) for t in held])
    cosine = np.array([p.vector_score or 0.0 for p in passages])
    fused = np.array([p.fused_score for p in passages])
    top_keyword = max((p.keyword_score or 0.0 for p in passages), default=0.0) or 1.0
    columns = [
        1.0 / (1.0 + np.arange(len(passages))),
        fused - fused.max(),
        np.array([_reciprocal(p.keyword_rank) for p in passages]),
        np.array([(p.keyword_score or 0.0) / top_keyword for p in passages]),
        np.array([_reciprocal(p.vector_rank) for p in passages]),
        cosine,
        cosine - cosine.max(),
        coverage,
        coverage - coverage.max(),
        np.array([covered_share(weight, frozenset(terms_of(p.heading))) for p in passages]),
        np.array([_best_sentence(weight, p.sentences) for p in passages]),
        np.array([math.log1p(len(p.text)) / 8.0 for p in passages]),
        np.full(len(passages), float(HAN_RE.search(question) is not None)),
    ]
    return np.stack(columns, axis=1).astype(np.float32)


def _reciprocal(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


def _best_sentence(weight: dict[str, float], sentences: Sequence[str]) -> float:
    """The share of the question's terms held by the passage's best sentence alone."""
    return max((covered_share(weight, frozenset(terms_of(s))) for s in sentences), default=0.0)


_AT = {name: k for k, name in enumerate(PASSAGE_COLUMNS)}


def passage_summary(rows: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """One row of ``PASSAGE_SUMMARY`` for a question over its passages: what the best
    scored passage holds, its lead over the second, the best coverage and cosine anywhere."""
    if len(scores) == 0:
        return np.zeros(len(PASSAGE_SUMMARY), dtype=np.float32)
    order = np.argsort(-scores)
    top = rows[order[0]]
    second = scores[order[1]] if len(scores) > 1 else scores[order[0]] - 4.0
    values = [
        scores[order[0]],
        scores[order[0]] - second,
        top[_AT["coverage"]],
        top[_AT["sentence_coverage"]],
        top[_AT["cosine"]],
        rows[:, _AT["coverage"]].max(),
        rows[:, _AT["cosine"]].max(),
        top[_AT["chinese"]],
    ]
    return np.array(values, dtype=np.float32)
