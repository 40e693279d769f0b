"""The coverage model, an experiment (issue 32): whether the candidate sentences answer
the question at all. Not used by the answerers: on the never-seen DEV sets it did not
beat the rules' refusal (``benchmarks/results/refusals-learned-DEV-2026-12-05.md``).

Readers' uncovered questions are plausible: the document talks about the topic, not
about the fact asked. This model is fitted on exactly that case
(``training/coverage_pairs.py``): a QA set's question over its own article with the
answering sentence(s) deleted, against the intact article (and, fewer, another
article). It reads a summary of what the sentence scorer already computed over the
candidates (``coverage_features``): the best sentence's score and its lead, the share of
the question's terms (IDF-weighted) the best sentence, its window and its passage hold,
the e5 cosines. One small network per language ("en", "zh") and variant (with e5
vectors, or lexical only), and a refusal threshold chosen on the never-seen DEV sets
(``coverage_train.py``); weights in ``training/coverage.json``. ``model_coverage`` reads
it over an answerer's candidates (``benchmarks/refusals.py sweep``); code (most candidates
code blocks) always counts as covered: a question about code shares few prose words.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.sentence_rows import candidate_rows, kept_candidates
from askalong.answer.scorer.features import ANSWERABLE, COLUMNS, answerable_features
from askalong.answer.scorer.model import Network, Scorer, network, shipped_scorer
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading

WEIGHTS = Path(__file__).resolve().parent / "coverage.json"
COVERAGE = (
    *ANSWERABLE,
    "top_passage_coverage",
    "best_passage_coverage",
    "best_window",
    "top_share",
)
_AT = {name: k for k, name in enumerate(COLUMNS)}


def coverage_features(rows: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """One row of ``COVERAGE`` for a question over its candidates (``rows``:
    ``features.sentence_features``; ``scores``: the sentence head's)."""
    if len(scores) == 0:
        return np.zeros(len(COVERAGE), dtype=np.float32)
    top = int(np.argmax(scores))
    weight = np.exp(scores - scores.max())
    extra = [
        rows[top, _AT["coverage_passage"]],
        rows[:, _AT["coverage_passage"]].max(),
        rows[:, _AT["coverage_window"]].max(),
        1.0 / weight.sum(),  # the best sentence's softmax share: how peaked the choice is
    ]
    return np.concatenate([answerable_features(rows, scores), extra]).astype(np.float32)


@dataclass(frozen=True)
class CoverageModel:
    """One network per variant and language, and their refusal thresholds."""

    networks: dict[str, dict[str, Network]]  # variant -> language -> network
    thresholds: dict[str, dict[str, float]]  # variant -> language -> probability

    def probability(
        self, rows: np.ndarray, scores: np.ndarray, language: str, embedded: bool
    ) -> float:
        """How likely the candidates answer the question (0: no candidate)."""
        if len(scores) == 0:
            return 0.0
        summary = coverage_features(rows, scores)[None, :]
        logit = float(self._network(language, embedded)(summary)[0])
        return 1.0 / (1.0 + np.exp(-logit))

    def threshold(self, language: str, embedded: bool) -> float:
        by_language = self.thresholds[_variant(embedded)]
        return by_language.get(_language(language), by_language["en"])

    def _network(self, language: str, embedded: bool) -> Network:
        by_language = self.networks[_variant(embedded)]
        return by_language.get(_language(language), by_language["en"])


def _variant(embedded: bool) -> str:
    return "embedded" if embedded else "lexical"


def _language(language: str) -> str:
    return "zh" if language.startswith("zh") else "en"


def coverage_model_from(data: dict[str, Any]) -> CoverageModel:
    """A ``CoverageModel`` from its JSON form (``training/coverage_train.py`` writes it)."""
    networks = {
        variant: {lang: network(spec, COVERAGE) for lang, spec in by_language.items()}
        for variant, by_language in data["networks"].items()
    }
    thresholds = {
        variant: {lang: float(p) for lang, p in by_language.items()}
        for variant, by_language in data["thresholds"].items()
    }
    return CoverageModel(networks, thresholds)


@functools.lru_cache(maxsize=1)
def saved_coverage_model() -> CoverageModel:
    """The coverage model ``coverage_train.py`` last wrote (read once)."""
    return coverage_model_from(json.loads(WEIGHTS.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class Coverage:
    """The coverage model's probability that the evidence answers, and its threshold."""

    probability: float
    threshold: float

    @property
    def covered(self) -> bool:
        return self.probability >= self.threshold


def model_coverage(
    question: QuestionReading,
    found: Sequence[Candidate],
    embedder: Embedder | None,
    *,
    scorer: Scorer | None = None,
    model: CoverageModel | None = None,
) -> Coverage:
    """The coverage model over ``found`` (the candidate sentences an answerer reads): the
    sentences the learned answerer would keep, their feature rows and the sentence head's
    scores; code never counts as uncovered (``_code``)."""
    model = model or saved_coverage_model()
    embedded = embedder is not None
    threshold = model.threshold(question.language, embedded)
    if _code(found):
        return Coverage(1.0, 0.0)  # never refused
    kept = kept_candidates(question.text, [c for c in found if c.text.strip()])
    rows = candidate_rows(question.text, kept, embedder)
    scores = (scorer or shipped_scorer()).sentence_scores(rows, embedded)
    return Coverage(model.probability(rows, scores, question.language, embedded), threshold)


def _code(found: Sequence[Candidate]) -> bool:
    """Most of the candidates are code: prose words ("mutual exclusion") are not in it."""
    return bool(found) and 2 * sum(c.kind == "code" for c in found) >= len(found)
