"""Explain / Example / Compare on the learned scorer (issue 32): the evidence sentences
the plain questions' model ranks best for the selection's key terms
(``context.explain.selection_terms``), never for the selection itself.

The query is the heaviest ``QUERY_TERMS`` key terms, with, for a Compare, what the
reader's question sets the selection against (``explain.other_side``). Worded as an
intent's question ("What is X?", "What is an example of X?") it answered fewer DEV
intents (85 of 149 against 88 for the terms alone), so the intent shapes the answer
(``intents``), not the query. The sentences inside or overlapping the selection, or
whose text the selection holds, are no candidates, nor are headings, captions and the
like (``direct.NOT_ANSWERS``) or questions, nor a lead-in whose announced block the
evidence lacks ("The following filters are supported:" ending its unit,
``direct_choice.hangs``: alone it tells a reader nothing, and the next best answers), nor,
for a Compare, what its answer quotes beside the selection anyway (``_shown``); the rest
go through the same rows and heads
as a plain question's (``sentence_rows``, ``Scorer.sentence_scores`` then
``Scorer.rank_scores``). The quotes are the best sentence and those close to it by the
rank head's softmax weight (``learned.QUOTE_SHARE``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from askalong.answer.extractive.beside_selection import quoted_beside
from askalong.answer.extractive.boilerplate import asks
from askalong.answer.extractive.candidates import Candidate, candidates
from askalong.answer.extractive.direct import NOT_ANSWERS
from askalong.answer.extractive.direct_choice import hangs
from askalong.answer.extractive.intents import Ranker
from askalong.answer.extractive.learned import QUOTE_SHARE
from askalong.answer.extractive.selection_places import place_rows
from askalong.answer.extractive.sentence_rows import candidate_rows, kept_candidates, rank_rows
from askalong.answer.scorer.model import Scorer, shipped_scorer
from askalong.context.explain import other_side, selection_terms, whole_words
from askalong.context.explain_units import unit_passages
from askalong.context.material import Material, Selection
from askalong.context.units import ContextUnit, Piece
from askalong.providers.base import Embedder
from askalong.question.reading import read_question
from askalong.text.fold import fold
from askalong.text.scripts import answer_language
from askalong.types import BlockSpan, Intent

MAX_QUOTES = 6
# the heaviest key terms asked about (``selection_terms`` keeps six): 2, 3 and 6 answered
# 86, 88 and 87 DEV intents of 149
QUERY_TERMS = 3


def learned_ranker(
    question: str, embedder: Embedder | None, scorer: Scorer | None = None
) -> Ranker:
    """``learned_material`` for the reader's ``question``, as ``intents`` calls a ranker."""

    def ranked(
        intent: Intent, selection: Selection, units: Sequence[ContextUnit]
    ) -> list[tuple[int, Material]]:
        return learned_material(intent, question, selection, units, embedder, scorer)

    return ranked


def learned_material(
    intent: Intent,
    question: str,
    selection: Selection,
    units: Sequence[ContextUnit],
    embedder: Embedder | None = None,
    scorer: Scorer | None = None,
) -> list[tuple[int, Material]]:
    """The best sentences of ``units`` outside the selection for its key terms, each with
    the index of its unit, best first; none when the selection has no key term or the
    evidence no other sentence."""
    scored = intent_candidates(intent, question, selection, units, embedder, scorer)
    if scored is None:
        return []
    found, ranks, terms = scored
    return [(found[k].unit, _material(found[k], terms, float(ranks[k]))) for k in _best(ranks)]


def intent_candidates(
    intent: Intent,
    question: str,
    selection: Selection,
    units: Sequence[ContextUnit],
    embedder: Embedder | None = None,
    scorer: Scorer | None = None,
    *,
    placed: bool = True,
) -> tuple[list[Candidate], np.ndarray, list[str]] | None:
    """The sentences of ``units`` that may answer for the selection's key terms, their
    scores (the intent head's over the rank head's and where each stands, ``placed``; else
    the rank head's) and the terms; None without a key term or a candidate."""
    passages = [p for unit in units for p in unit_passages(unit)]
    terms = list(selection_terms(whole_words(selection, passages), passages))[:QUERY_TERMS]
    if not terms:
        return None
    others = other_side(question, selection.text) if intent == "compare" else []
    query = intent_query([*terms, *others], answer_language(selection.text))
    shown = _shown(intent, selection, units)
    every = candidates(units)
    found = kept_candidates(
        query, [c for c in every if _may_stand(c, selection, shown) and not hangs(every, c)]
    )
    if not found:
        return None
    scorer = scorer or shipped_scorer()
    embedded = embedder is not None
    rows = candidate_rows(query, found, embedder)
    scores = scorer.sentence_scores(rows, embedded)
    ranks = scorer.rank_scores(
        rows, scores, rank_rows(read_question(query), found, embedder), embedded
    )
    if placed:
        places = place_rows(found, selection, units, terms)
        ranks = scorer.intent_scores(intent, ranks, places, embedded)
    return found, ranks, terms


def intent_query(terms: Sequence[str], language: str) -> str:
    """The terms asked about, as one query."""
    return ("、" if language == "zh" else ", ").join(terms)


def _shown(intent: Intent, selection: Selection, units: Sequence[ContextUnit]) -> list[BlockSpan]:
    """What a Compare's answer quotes beside the selection whatever its best sentence: the
    contrast is looked for past it (each DEV set left out, Compare 67 -> 72 of 129 answered;
    an Explain or Example leading with that neighbour keeps it in the answer's shape,
    and lost hits without it: Example 72 -> 68)."""
    if intent != "compare":
        return []
    return [p.span for pieces in quoted_beside(selection, units[0]) for p in pieces]


def _may_stand(candidate: Candidate, selection: Selection, shown: Sequence[BlockSpan]) -> bool:
    """A sentence that may answer for the selection: prose, no question, outside it and
    outside what the answer quotes beside it anyway (``shown``: the best sentence should
    add to those words, not repeat them), and neither holding the selection's words nor
    held in them (a summary's "In short, …" repeating it is an echo all the same)."""
    text = candidate.text.strip()
    if not text or candidate.kind in NOT_ANSWERS or asks(text):
        return False
    span = _span(candidate)
    if selection.overlaps(span) or any(_overlap(span, s) for s in shown):
        return False
    said, selected = fold(text), fold(selection.text)
    return said not in selected and selected not in said


def _overlap(a: BlockSpan, b: BlockSpan) -> bool:
    return a.block_id == b.block_id and a.start < b.end and b.start < a.end


def _best(ranks: np.ndarray) -> list[int]:
    """The best sentence and those with ``QUOTE_SHARE`` of its softmax weight, best first."""
    order = [int(k) for k in np.argsort(-ranks, kind="stable")]
    weight = np.exp(ranks - ranks.max())
    return [k for k in order if weight[k] >= QUOTE_SHARE * weight[order[0]]][:MAX_QUOTES]


def _material(candidate: Candidate, terms: Sequence[str], rank: float) -> Material:
    named = [t for t in terms if t.lower() in candidate.text.lower()]
    piece = Piece(_span(candidate), candidate.text)
    return Material("related", (named or terms)[0], piece, rank)


def _span(candidate: Candidate) -> BlockSpan:
    return BlockSpan(candidate.block_id, candidate.start, candidate.end)
