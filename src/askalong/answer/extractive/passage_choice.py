"""The learned answerer's passage choice (issue 32): before any sentence is scored, the
passage model (``answer/scorer/passage_model``) ranks the retrieved context units by what
the search knew of them (each route's rank and score, the fused score) and what they hold
of the question, and only the best ``KEPT`` go on to the sentence scorer, best first. A
unit the reader anchored or cross-referenced is never dropped.

Its answerable head also says how likely any retrieved passage answers: the answerer
refuses below the language's threshold (``PassageChoice.weak``); the shipped thresholds
are 0 (never): on the never-seen dev sets that head does not tell covered from uncovered
questions (``benchmarks/results/answers-passages-DEV-2026-12-05.md``).

The choice needs the search's evidence: without hits, or when only one route ran (its
scores are not the fused scale the model was fitted on), every unit stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from askalong.answer.scorer.passage_model import PassageScorer, shipped_passage_scorer
from askalong.answer.scorer.passages import Passage, passage_features
from askalong.context.units import ContextUnit
from askalong.text.sentences import split_sentences
from askalong.types import Hit

KEPT = 4  # retrieved passages the sentence scorer reads, best first


@dataclass(frozen=True)
class PassageChoice:
    """The units the sentence scorer reads, best first, and the answerable head's view."""

    units: tuple[ContextUnit, ...]
    probability: float | None  # None: no choice was made (every unit kept)
    threshold: float = 0.0

    @property
    def weak(self) -> bool:
        """The best retrieved passage is unlikely to answer: a refusal."""
        return self.probability is not None and self.probability < self.threshold


def choose_passages(
    question: str,
    language: str,
    units: Sequence[ContextUnit],
    hits: Sequence[Hit],
    scorer: PassageScorer | None = None,
) -> PassageChoice:
    """The anchored and cross-referenced units, then the ``KEPT`` best retrieved ones."""
    retrieved = [k for k, u in enumerate(units) if u.origin == "retrieved"]
    passages = [_passage(units[k], hits) for k in retrieved]
    if not retrieved or any(p is None for p in passages):
        return PassageChoice(tuple(units), None)
    scorer = scorer or shipped_passage_scorer()
    rows = passage_features(question, [p for p in passages if p is not None])
    scores = scorer.scores(rows)
    best = [retrieved[k] for k in np.argsort(-scores, kind="stable")[:KEPT]]
    others = [u for u in units if u.origin != "retrieved"]
    probability = scorer.answerable_probability(rows, scores)
    return PassageChoice(
        (*others, *(units[k] for k in best)), probability, scorer.threshold(language)
    )


def _passage(unit: ContextUnit, hits: Sequence[Hit]) -> Passage | None:
    """``unit`` as the passage model reads it: its best hit's fused score and each
    route's best rank and score among its hits; None without a hybrid hit."""
    mine = [h for h in hits if h.chunk_id in unit.chunk_ids and h.mode == "hybrid"]
    if not mine:
        return None
    keyword = [h for h in mine if h.keyword_rank is not None]
    vector = [h for h in mine if h.vector_rank is not None]
    return Passage(
        unit.text,
        tuple(unit.text[a:b] for a, b in split_sentences(unit.text)),
        " ".join(unit.section_path),
        max(h.score for h in mine),
        min((h.keyword_rank for h in keyword if h.keyword_rank), default=None),
        max((h.keyword_score for h in keyword if h.keyword_score is not None), default=None),
        min((h.vector_rank for h in vector if h.vector_rank), default=None),
        max((h.vector_score for h in vector if h.vector_score is not None), default=None),
    )
