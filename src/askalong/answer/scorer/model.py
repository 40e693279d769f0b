"""The learned scorer's model: a small network over ``features`` columns, evaluated in
numpy from the weights ``training/train.py`` wrote (``weights.json``, package data).

Two heads, each in two variants (with e5 vectors, or lexical only when the answerer has
no embedder): ``sentence`` scores every candidate (higher: more likely the sentence that
holds the answer; fitted with a softmax over each question's candidates), ``answerable``
gives the probability that the candidates answer the question at all; below the
language's ``threshold`` (chosen on dev data: at most ~5 % of covered dev questions
refused) the answer is "not covered".

A third, optional head, ``rank``, orders the candidates for the answer's choice when
present: fitted on readers' own questions over never-seen documents
(``training/readers.py``): a linear model of the same columns beside the sentence
head's score (``RANK_COLUMNS``). The answerable head keeps reading the sentence head's
scores, the scale its threshold was chosen on.

The rank head may read the score of a boosted ensemble of small trees over the same
columns (``rank_trees``, ``trees.py``; ``training/rank_trees.py``), its ``trees`` input:
the shipped embedded head is that score times a temperature.

A fourth, optional head, ``refusal``, decides "not covered" where present (embedded
variant): a logistic model over ``refusal_row.REFUSAL`` (the answerable head's summary and
probability, the rank head's best and margin, what the search knew of the best passage)
fitted on readers' covered and uncovered questions over the never-seen documents and on
public QA questions over their own paragraph and over another article's
(``training/refusal.py``); its threshold is chosen there, on the readers' covered
questions. Without it the answerable head and its per-language thresholds decide.

Optional ``intent`` heads, one per quick intent (Explain, Example, Compare; embedded
variant), order an intent's candidate sentences: a linear model of the rank head's score
and where the sentence stands relative to the selection (``INTENT_COLUMNS``), fitted on
readers' selections (``training/intent_head.py``).

An optional ``read_on`` head (embedded variant) chooses the direct answer's window: the
best sentence and what it leads into, over the best sentence and its pair, when its
probability passes its threshold (a logistic model over ``READ_ON``, fitted on readers'
questions: ``training/read_on.py``; ``extractive/read_on.py``).

An optional ``across`` head (embedded variant) orders the candidates instead of the rank
head when the evidence is in the other language than the question: a linear model of the
rank head's inputs, its score and ``features.ACROSS`` (the question's Latin-script terms
a sentence holds, its words translated by the bilingual lexicon it holds, prose, its
language), fitted on readers' cross-lingual questions (``training/across_rank.py``); the
rank head learned from same-language groups only.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from askalong.answer.scorer.features import (
    ACROSS,
    ANSWERABLE,
    COLUMNS,
    ENTRY,
    INTENT_COLUMNS,
    LEXICAL,
    READ_ON,
    answerable_features,
)
from askalong.answer.scorer.refusal_row import REFUSAL
from askalong.answer.scorer.trees import Trees, trees_from

WEIGHTS_FILE = "weights.json"
# the features, the sentence head's score and where the sentence stands in its entry
RANK_COLUMNS = (*COLUMNS, "sentence_score", *ENTRY, "reader_cosine")
# what the rank head reads: its columns and its trees' score (``trees``), where it has trees
RANK_INPUTS = (*RANK_COLUMNS, "trees")
# the rank head's columns, its score and what ties a sentence to a question across languages
ACROSS_COLUMNS = (*RANK_COLUMNS, "rank_score", *ACROSS)


@dataclass(frozen=True)
class Network:
    """Standardise the chosen columns, then tanh layers, then one linear output."""

    columns: tuple[int, ...]
    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        x = (rows[:, self.columns] - self.mean) / self.scale
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < len(self.layers) - 1:
                x = np.tanh(x)
        return x[:, 0]


@dataclass(frozen=True)
class Scorer:
    """The heads, both variants, and the refusal thresholds per language."""

    sentence: dict[str, Network]  # "embedded" / "lexical"
    answerable: dict[str, Network]
    thresholds: dict[str, dict[str, float]]  # variant -> language ("en" / "zh") -> p
    rank: dict[str, Network] = field(default_factory=dict)  # variants without one: sentence's
    refusal: dict[str, tuple[Network, float]] = field(default_factory=dict)  # head, threshold
    intent: dict[str, dict[str, Network]] = field(default_factory=dict)  # variant -> intent
    read_on: dict[str, tuple[Network, float]] = field(default_factory=dict)  # head, threshold
    across: dict[str, Network] = field(default_factory=dict)  # variants without one: rank's
    rank_trees: dict[str, Trees] = field(default_factory=dict)  # the rank head's ``trees``

    def sentence_scores(self, rows: np.ndarray, embedded: bool) -> np.ndarray:
        if len(rows) == 0:
            return np.zeros(0, dtype=np.float32)
        return self.sentence[variant(embedded)](rows)

    def rank_scores(
        self, rows: np.ndarray, scores: np.ndarray, entries: np.ndarray, embedded: bool
    ) -> np.ndarray:
        """The order of the answer's choice (higher first): the rank head's over the rows,
        the sentence head's ``scores`` and the ``entries`` rows (``ENTRY``), or those
        scores where the variant has none."""
        head = self.rank.get(variant(embedded))
        if head is None or len(rows) == 0:
            return scores
        inputs = np.hstack([rows, scores[:, None], entries])
        trees = self.rank_trees.get(variant(embedded))
        boosted = trees(inputs) if trees is not None else np.zeros(len(rows))
        return head(np.hstack([inputs, boosted[:, None]]))

    def across_scores(
        self,
        inputs: np.ndarray,
        ranks: np.ndarray,
        rows: Callable[[], np.ndarray],
        embedded: bool,
    ) -> np.ndarray:
        """The order of the answer's choice across languages: the across head over the
        rank head's ``inputs`` (``RANK_COLUMNS``), its scores ``ranks`` and the ``rows``
        (``ACROSS``, made only when a head reads them), or ``ranks`` where the variant has
        no across head."""
        head = self.across.get(variant(embedded))
        if head is None or len(ranks) == 0:
            return ranks
        return head(np.hstack([inputs, ranks[:, None], rows()]))

    def intent_scores(
        self, intent: str, ranks: np.ndarray, places: np.ndarray, embedded: bool
    ) -> np.ndarray:
        """The order of an Explain / Example / Compare's sentences: the intent's head over
        the rank head's scores ``ranks`` and the ``places`` rows (``PLACE``), or ``ranks``
        where the variant has no head for ``intent``."""
        head = self.intent.get(variant(embedded), {}).get(intent)
        if head is None or len(ranks) == 0:
            return ranks
        return head(np.hstack([ranks[:, None], places]))

    def reads_on(self, row: np.ndarray, embedded: bool) -> bool:
        """Whether the direct answer is the read-on window (``row``: one ``READ_ON`` row);
        never where the variant has no ``read_on`` head."""
        found = self.read_on.get(variant(embedded))
        return found is not None and _sigmoid(float(found[0](row[None, :])[0])) >= found[1]

    def answerable_probability(self, rows: np.ndarray, scores: np.ndarray, embedded: bool) -> float:
        summary = answerable_features(rows, scores)[None, :]
        return _sigmoid(float(self.answerable[variant(embedded)](summary)[0]))

    def covered_probability(self, row: np.ndarray, embedded: bool) -> float | None:
        """The refusal head's probability that the question is covered (``row``: one
        ``REFUSAL`` row), or None where the variant has no refusal head."""
        found = self.refusal.get(variant(embedded))
        if found is None:
            return None
        return _sigmoid(float(found[0](row[None, :])[0]))

    def refusal_threshold(self, embedded: bool) -> float:
        return self.refusal[variant(embedded)][1]

    def threshold(self, language: str, embedded: bool, across: bool = False) -> float:
        """The refusal threshold for questions in ``language`` ("en" / "zh"); ``across``:
        over sentences in the other language (its own threshold where trained)."""
        by_language = self.thresholds[variant(embedded)]
        own = by_language.get(language, by_language["en"])
        return by_language.get(f"{language}-across", own) if across else own


def _sigmoid(logit: float) -> float:
    return float(1.0 / (1.0 + np.exp(-logit)))


def variant(embedded: bool) -> str:
    """The heads' variant: with the bundled embedder's vectors, or lexical only."""
    return "embedded" if embedded else "lexical"


def network(spec: dict[str, Any], names: tuple[str, ...]) -> Network:
    """A ``Network`` from its JSON form (``training/train.py`` writes it)."""
    chosen = [str(c) for c in spec["columns"]]
    layers = tuple(
        (np.asarray(layer["w"], dtype=np.float64), np.asarray(layer["b"], dtype=np.float64))
        for layer in spec["layers"]
    )
    return Network(
        tuple(names.index(c) for c in chosen),
        np.asarray(spec["mean"], dtype=np.float64),
        np.asarray(spec["scale"], dtype=np.float64),
        layers,
    )


def scorer_from(data: dict[str, Any]) -> Scorer:
    heads = {"sentence": COLUMNS, "answerable": ANSWERABLE}
    built = {
        head: {v: network(spec, names) for v, spec in data[head].items()}
        for head, names in heads.items()
    }
    thresholds = {
        variant: {lang: float(p) for lang, p in by_language.items()}
        for variant, by_language in data["thresholds"].items()
    }
    rank = {v: network(spec, RANK_INPUTS) for v, spec in data.get("rank", {}).items()}
    trees = {v: trees_from(spec, RANK_COLUMNS) for v, spec in data.get("rank_trees", {}).items()}
    refusal = {
        v: (network(spec, REFUSAL), float(spec["threshold"]))
        for v, spec in data.get("refusal", {}).items()
    }
    intent = {
        v: {name: network(spec, INTENT_COLUMNS) for name, spec in heads.items()}
        for v, heads in data.get("intent", {}).items()
    }
    read_on = {
        v: (network(spec, READ_ON), float(spec["threshold"]))
        for v, spec in data.get("read_on", {}).items()
    }
    across = {v: network(spec, ACROSS_COLUMNS) for v, spec in data.get("across", {}).items()}
    return Scorer(
        built["sentence"], built["answerable"], thresholds, rank, refusal, intent,
        read_on=read_on, across=across, rank_trees=trees,
    )  # fmt: skip


@functools.lru_cache(maxsize=1)
def shipped_scorer() -> Scorer:
    """The scorer whose weights ship inside the package (read once)."""
    text = resources.files("askalong.answer.scorer").joinpath(WEIGHTS_FILE).read_text("utf-8")
    return scorer_from(json.loads(text))


__all__ = [
    "ACROSS_COLUMNS",
    "LEXICAL",
    "RANK_COLUMNS",
    "RANK_INPUTS",
    "Network",
    "Scorer",
    "scorer_from",
    "shipped_scorer",
    "variant",
]
