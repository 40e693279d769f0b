"""The across head's own columns (``features.ACROSS``) for a question asked over evidence
in the other language (pure).

The lexical columns measure the question's terms over all of them, most of which the
other language never holds, so a name the two share ("SQLite", "-q", "8118") counts
for little there. Here only the question's Latin-script terms count (names, numbers, code
identifiers: for an English question every term, for a Chinese one those it borrows),
IDF-weighted among the candidates, in the sentence and in the sentence with its
neighbours. Beside them: whether the sentence is prose (``across.is_prose``: no
bibliography entry or fragment, which land close to any question across languages) and
whether it is written in the question's own language.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from askalong.answer.extractive.across import is_prose
from askalong.answer.extractive.candidates import Candidate
from askalong.answer.scorer.features import ACROSS, covered_share, idf_weights
from askalong.question.reading import QuestionReading
from askalong.text.scripts import detect_language
from askalong.text.tokens import terms_of


def across_features(question: QuestionReading, found: Sequence[Candidate]) -> np.ndarray:
    """One ``ACROSS`` row per candidate."""
    if not found:
        return np.zeros((0, len(ACROSS)), dtype=np.float32)
    anchors = {t for t in terms_of(question.text) if t.isascii()}
    terms = [frozenset(terms_of(c.text)) for c in found]
    weight = idf_weights(anchors, terms)
    share = [covered_share(weight, t) for t in terms]
    window = [covered_share(weight, t) for t in _windows(found, terms)]
    prose = [float(is_prose(c)) for c in found]
    own = [float(detect_language(c.text) == question.language) for c in found]
    return np.array([share, window, prose, own], dtype=np.float32).T


def _windows(found: Sequence[Candidate], terms: list[frozenset[str]]) -> list[set[str]]:
    """Each sentence's terms with those of the sentences right before and after it in
    its block."""
    at = {(c.unit, c.piece, c.index): k for k, c in enumerate(found)}
    out = []
    for c, own in zip(found, terms, strict=True):
        near = (at.get((c.unit, c.piece, c.index + step)) for step in (-1, 1))
        out.append(set(own).union(*(terms[k] for k in near if k is not None)))
    return out
