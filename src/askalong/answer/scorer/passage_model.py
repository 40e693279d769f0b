"""The passage model: which retrieved passage holds the answer, and whether any does.

Two heads over ``passages`` columns, evaluated in numpy from the weights
``training/train_passages.py`` wrote (``passages.json``, package data): ``passage``
scores each of a question's retrieved passages (fitted with a softmax over them), and
``answerable`` gives the probability that the best of them answers at all; below the
language's ``threshold`` the question is taken as not covered (the shipped thresholds
are 0: on the never-seen dev documents the head does not separate the two).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources

import numpy as np

from askalong.answer.scorer.model import Network, network
from askalong.answer.scorer.passages import PASSAGE_COLUMNS, PASSAGE_SUMMARY, passage_summary

PASSAGES_FILE = "passages.json"


@dataclass(frozen=True)
class PassageScorer:
    """Both heads and the refusal threshold per language ("en", "zh")."""

    passage: Network
    answerable: Network
    thresholds: dict[str, float]

    def scores(self, rows: np.ndarray) -> np.ndarray:
        if len(rows) == 0:
            return np.zeros(0, dtype=np.float32)
        return self.passage(rows)

    def answerable_probability(self, rows: np.ndarray, scores: np.ndarray) -> float:
        logit = float(self.answerable(passage_summary(rows, scores)[None, :])[0])
        return 1.0 / (1.0 + np.exp(-logit))

    def threshold(self, language: str) -> float:
        return self.thresholds.get(language, self.thresholds["en"])


@functools.lru_cache(maxsize=1)
def shipped_passage_scorer() -> PassageScorer:
    """The passage model whose weights ship inside the package (read once)."""
    folder = resources.files("askalong.answer.scorer")
    data = json.loads(folder.joinpath(PASSAGES_FILE).read_text("utf-8"))
    return PassageScorer(
        network(data["passage"], PASSAGE_COLUMNS),
        network(data["answerable"], PASSAGE_SUMMARY),
        {lang: float(p) for lang, p in data["thresholds"].items()},
    )
