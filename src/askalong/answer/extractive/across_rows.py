"""The across head's own columns (``features.ACROSS``) for a question asked over evidence
in the other language (pure).

The lexical columns measure the question's terms over all of them, most of which the
other language never holds, so a name the two share ("SQLite", "-q", "8118") counts
for little there. Here only the question's Latin-script terms count (names, numbers, code
identifiers: for an English question every term, for a Chinese one those it borrows),
IDF-weighted among the candidates, in the sentence and in the sentence with its
neighbours. The same for the question's translated words (``text/lexicon``: each of its
content words as the words the other language may write it with, CC-CEDICT's glosses):
the IDF-weighted share of them the sentence holds, alone and with its neighbours, so
a Chinese question ties to an English sentence that shares no name with it. Beside them:
whether the sentence is prose (``across.is_prose``: no
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
from askalong.text.lexicon import rendered_terms, renderings
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
    translated, translated_window = _translated(question, found)
    columns = [share, window, prose, own, translated, translated_window]
    return np.array(columns, dtype=np.float32).T


def _translated(question: QuestionReading, found: Sequence[Candidate]) -> tuple[list, list]:
    """The IDF-weighted share of the question's translated words each sentence holds,
    alone and with its neighbours (a word is held when the sentence writes any of its
    renderings)."""
    asked = sorted(renderings(question.text, question.language), key=sorted)
    rendered = [rendered_terms(c.text) for c in found]
    held = [frozenset(str(k) for k, r in enumerate(asked) if not r.isdisjoint(t)) for t in rendered]
    weight = idf_weights({str(k) for k in range(len(asked))}, held)
    alone = [covered_share(weight, h) for h in held]
    return alone, [covered_share(weight, h) for h in _windows(found, held)]


def _windows(found: Sequence[Candidate], terms: list[frozenset[str]]) -> list[set[str]]:
    """Each sentence's terms with those of the sentences right before and after it in
    its block."""
    at = {(c.unit, c.piece, c.index): k for k, c in enumerate(found)}
    out = []
    for c, own in zip(found, terms, strict=True):
        near = (at.get((c.unit, c.piece, c.index + step)) for step in (-1, 1))
        out.append(set(own).union(*(terms[k] for k in near if k is not None)))
    return out
