"""Compare / Example on a selection when the document has no cued material for it: the
sentences around it ranked by the plain questions' own scorer (``scoring``), asked with
a query of the selection's key terms, never with the selection itself.

A contrast or an example often carries no cue ("whereas", "for example"): the sentence
after "RESERVED differs from PENDING …" that says what PENDING forbids, or the next
paragraph on the other option. Ranking every evidence sentence by the rarity-weighted
share of the selection's key terms it holds (the intent's cue only a bonus, the anchor's
neighbourhood first by origin) finds them; nothing that overlaps the selection is taken.
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.answer.extractive.direct import NOT_ANSWERS
from askalong.answer.extractive.scoring import Scored, Weights, score_candidates
from askalong.context.explain import selection_terms, whole_words
from askalong.context.explain_units import unit_passages
from askalong.context.material import Material, Selection
from askalong.context.units import ContextUnit, Piece
from askalong.question.reading import read_question
from askalong.types import BlockSpan, Intent

RANKED_INTENTS = frozenset({"compare", "example"})


def ranked_material(
    intent: Intent, selection: Selection, units: Sequence[ContextUnit]
) -> list[tuple[int, Material]]:
    """The best sentences of ``units`` (outside the selection) for the selection's key
    terms, each with the index of its unit, best first; none when it has no key term."""
    passages = [p for unit in units for p in unit_passages(unit)]
    terms = list(selection_terms(whole_words(selection, passages), passages))
    if not terms:
        return []
    query = read_question(" ".join(terms))
    scored = score_candidates(query, units, intent=intent)
    kept = sorted((s for s in scored if _outside(s, selection)), key=lambda s: -s.score)
    if not kept:
        return []
    floor = Weights().quote_ratio * kept[0].score
    best = [s for s in kept if s.score >= floor][: Weights().max_quotes]
    return [(s.candidate.unit, _material(s, terms)) for s in best]


def _outside(scored: Scored, selection: Selection) -> bool:
    """A sentence that may stand for the selection's contrast or example: one that
    shares its terms, is prose (no heading, caption or formula) and lies outside it."""
    c = scored.candidate
    span = BlockSpan(c.block_id, c.start, c.end)
    return scored.relevance > 0 and c.kind not in NOT_ANSWERS and not selection.overlaps(span)


def _material(scored: Scored, terms: Sequence[str]) -> Material:
    c = scored.candidate
    named = [t for t in terms if t.lower() in c.text.lower()]
    piece = Piece(BlockSpan(c.block_id, c.start, c.end), c.text)
    return Material("related", (named or terms)[0], piece, scored.score)
