"""Material from the document for explaining a selection (pure).

Explain / Example / Compare on a selection must answer from the rest of the document,
never with the selection itself. ``find_material`` looks through passages (a document's
blocks while gathering, the context units' pieces while answering) for:

- ``setup``: the sentence the selection continues from, when it opens with "this", "it",
  "such", "where", "该", "这" … (and the formula a "where d is …" clause follows);
- ``definition``: the document's own definition of one of the selection's key terms
  (``definitions.definition_strength``);
- ``reference``: the caption, heading or formula of the table / figure / section /
  equation the selection points at ("Table 2", "表 1", "§3", "Equation 1");
- ``citation``: the bibliography entry of a work the selection cites (``citations``);
- ``example`` / ``contrast``: sentences about the key terms with an example or a contrast
  cue, or naming both sides of a comparison.

A selection's key terms (``selection_terms``) are its words weighted by how rare they
are in the document (an acronym counts half again): the rare ones are what a reader asks
to have explained. Nothing that overlaps the selection is ever material.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from askalong.context.citations import in_references
from askalong.context.continuation import delivered
from askalong.context.definitions import (
    contrast_cue,
    definition_strength,
    example_cue,
    is_acronym,
    mention_key,
    mentions,
)
from askalong.context.key_terms import candidates as candidates_of
from askalong.context.key_terms import capitalised_inside, printable, words
from askalong.context.material import (
    RARE,
    Material,
    MaterialKind,
    Passage,
    Selection,
    Term,
    sentences,
)
from askalong.context.pointed import cited, referenced
from askalong.context.units import Piece, trimmed
from askalong.types import BlockSpan, Intent

_OPENS_ON_BEFORE = re.compile(
    r"\W*(?:this|these|that|those|it|its|they|their|such|where|here|thus|hence|therefore"
    r"|then|also)\b|\W*(?:这|此|该|其|它|上述|因此|所以|从而|但|然而|可见)",
    re.IGNORECASE,
)
_CLAUSE_OPENING = frozenset(" ,，;；:：、")
_IRREGULAR_PAST_WORDS = "built made found given taken seen known shown chosen done run"
_IRREGULAR_PAST = frozenset(_IRREGULAR_PAST_WORDS.split())
# the words a comparison question asks with, never one of its sides
_ASKING_WORDS = (
    "how differ differs different difference differences compare compared comparison contrast "
    "related ideas idea concept concepts explain example mean means between "
    "区别 不同 差异 比较 相比 有什么 什么 相关 概念 这个"
)
_ASKING = frozenset(_ASKING_WORDS.split())
_MAX_TERMS = 6
_MIN_PASSAGES_TO_JUDGE = 20  # below this, a quarter of the passages is too few to call common
_WEAK_WITHIN = 60  # a weak "X is a …" counts only near the sentence start


def find_material(
    intent: Intent,
    selection: Selection,
    passages: Sequence[Passage],
    *,
    other_terms: Sequence[str] = (),
) -> list[Material]:
    """The material for ``intent`` on ``selection`` among ``passages`` (in reading order),
    best first within each kind, never overlapping the selection."""
    whole = passages
    passages = [part for p in passages for part in _cut(p, selection)]
    terms = selection_terms(whole_words(selection, passages), passages)
    # only passages naming a term (or the other side) can hold its material: a manual
    # has thousands of blocks, and splitting each into sentences is the cost
    named = [(t, mention_key(t)) for t in [*terms, *map(head, terms), *other_terms]]
    body = [p for p in passages if _names_any(p, named) and not in_references(p.section_path)]
    if intent == "example":
        found = [*delivered(selection, whole, [], colon_only=True)]
        found += cued(terms, body, example_cue, "example")
    elif intent == "compare":
        found = contrasts(terms, other_terms, body)
    else:
        defined = definitions(terms, body)
        # what "this" is and the part pointed at come first; a plain "X is a" comes last
        found = [
            *delivered(selection, whole, list(terms)),
            *setup(selection, passages),
            *referenced(selection, passages),
            *[m for m in defined if m.strength >= 2 * terms[m.label].weight],
            *cited(selection.text, passages),
            *[m for m in defined if m.strength < 2 * terms[m.label].weight],
        ]
    return [m for m in _unique(found) if not selection.overlaps(m.piece.span)]


def _cut(passage: Passage, selection: Selection) -> list[Passage]:
    """``passage`` in parts before, inside and after the selection: the rest of the
    sentence a selection ends inside ("…设计，也即…，比如 a4paper") can still explain it."""
    piece = passage.piece
    cuts = sorted(
        {
            edge - piece.span.start
            for s in selection.spans
            if s.block_id == piece.span.block_id
            for edge in (s.start, s.end)
            if piece.span.start < edge < piece.span.end
        }
    )
    if not cuts:
        return [passage]
    bounds = zip([0, *cuts], [*cuts, len(piece.text)], strict=True)
    parts = [_after_punctuation(piece, lo, hi) for lo, hi in bounds]
    return [replace(passage, piece=part) for part in parts if part is not None]


def _after_punctuation(piece: Piece, start: int, end: int) -> Piece | None:
    """``piece`` cut to ``start:end``, without the commas a cut clause opens with."""
    while start < end and piece.text[start] in _CLAUSE_OPENING:
        start += 1
    return trimmed(piece, start, end)


def whole_words(selection: Selection, passages: Sequence[Passage]) -> str:
    """The selection's text without a word it cuts at its end ("… to faci"): a piece of a
    word is no term."""
    text = selection.text
    end = selection.spans[-1] if selection.spans else None
    for passage in passages:
        piece = passage.piece
        if end is None or piece.span.block_id != end.block_id:
            continue
        at = end.end - piece.span.start
        if 0 < at < len(piece.text) and piece.text[at].isalnum() and piece.text[at - 1].isalnum():
            return re.sub(r"\w+$", "", text)
    return text


def selection_terms(
    text: str, passages: Sequence[Passage], *, limit: int = _MAX_TERMS
) -> dict[str, Term]:
    """Up to six key terms of ``text`` with their weights, heaviest first: rarer in the
    ``passages`` weighs more (``log(1 + n / (1 + df))``), an acronym half again; words
    in a quarter of the passages or more say nothing about this selection."""
    n = max(len(passages), 1)
    lowered = [p.piece.text.lower() for p in passages]
    candidates = candidates_of(text, lowered)
    terms: dict[str, Term] = {}
    for term in candidates:
        key = mention_key(term)  # a plain substring test first: most passages lack it
        df = sum(1 for k, low in enumerate(lowered) if key in low and _names(passages[k], term))
        if df * 4 > n and n >= _MIN_PASSAGES_TO_JUDGE:
            continue
        plain = not printable(term, text)
        if plain and df > RARE:
            continue  # a plain word used often is a common word here, no term
        weight = math.log(1 + n / (1 + df)) * _form_weight(term, text) * (0.5 if plain else 1)
        terms[term] = Term(weight, df)
    best = sorted(terms.items(), key=lambda item: -item[1].weight)[:limit]
    return dict(best)


def _form_weight(term: str, text: str) -> float:
    """How much the word's form says it is a term: an acronym half again; a capital that
    is only there because the word opens a sentence ("Note", "Unlike") and an inflected
    verb ("creating", "built") less than a plain noun."""
    if is_acronym(term):
        return 1.5
    if " " in term or (len(term) >= 4 and not term.isascii()):
        return 1.3  # a phrase the document uses again
    if term.istitle() and term.isalpha() and not capitalised_inside(term, text):
        return 0.5
    if term.islower() and (term.endswith(("ing", "ed")) or term in _IRREGULAR_PAST):
        return 0.6
    return 1.0


def head(term: str) -> str:
    """A phrase's last word ("seven tasks" -> "tasks"): a sentence about the tasks is
    about the phrase too, for finding an example or a contrast."""
    return term.rsplit(" ", 1)[-1]


def _about(sentence: str, term: str) -> bool:
    return mentions(sentence, term) or (
        " " in term and len(head(term)) > 3 and mentions(sentence, head(term))
    )


def _names(passage: Passage, term: str) -> bool:
    return mentions(passage.piece.text, term)


def _names_any(passage: Passage, named: Sequence[tuple[str, str]]) -> bool:
    low = passage.piece.text.lower()
    return any(key in low and _names(passage, term) for term, key in named)


def other_side(question: str, selection: str) -> list[str]:
    """What a comparison question sets the selection against: its words that are neither
    in the selection nor words of asking ("How is this different from BM25?" -> BM25)."""
    own = {t.lower() for t in words(selection)}
    return [t for t in dict.fromkeys(words(question)) if t.lower() not in own | _ASKING]


# ------------------------------------------------------------------------ the finders


def definitions(terms: dict[str, Term], passages: Sequence[Passage]) -> list[Material]:
    """Each term's strongest definition (the first one in reading order among equals);
    a plain "X is a …" only for a rare term or an acronym."""
    found: list[Material] = []
    for term, info in terms.items():
        best: tuple[int, Piece] | None = None
        floor = 1 if info.rare or is_acronym(term) else 2
        key = mention_key(term)
        for passage in (p for p in passages if key in p.piece.text.lower()):
            for sentence in sentences(passage):
                strength = _defines(sentence.text, term)
                if strength < floor:
                    continue
                if strength and (best is None or strength > best[0]):
                    best = (strength, sentence)
        if best is not None:
            found.append(Material("definition", term, best[1], info.weight * best[0]))
    return sorted(found, key=lambda m: -m.strength)


def _defines(sentence: str, term: str) -> int:
    if not mentions(sentence, term):
        return 0
    strength = definition_strength(sentence, term)
    if strength == 1:
        at = re.search(re.escape(term), sentence, re.IGNORECASE)
        return 1 if at is not None and at.start() <= _WEAK_WITHIN else 0
    return strength


def cued(
    terms: dict[str, Term],
    passages: Sequence[Passage],
    cue: Callable[[str], bool],
    kind: MaterialKind,
    *,
    limit: int = 4,
) -> list[Material]:
    """Sentences with ``cue`` that name a key term, by the weight of the terms named."""
    found = []
    for passage in passages:
        for sentence in sentences(passage):
            if not cue(sentence.text):
                continue
            named = [t for t in terms if _about(sentence.text, t)]
            if named:
                weight = math.fsum(terms[t].weight for t in named)
                found.append(Material(kind, named[0], sentence, weight))
    return sorted(found, key=lambda m: -m.strength)[:limit]


def contrasts(
    terms: dict[str, Term], other: Sequence[str], passages: Sequence[Passage], *, limit: int = 4
) -> list[Material]:
    """Sentences naming a key term and the other side (``other``: what the question
    compares with), then those naming a key term with a contrast cue."""
    both = []
    for passage in passages:
        for sentence in sentences(passage):
            named = [t for t in terms if _about(sentence.text, t)]
            others = [o for o in other if mentions(sentence.text, o)]
            if others and (named or contrast_cue(sentence.text)):
                weight = math.fsum(terms[t].weight for t in named) + 2.0 * len(others)
                both.append(Material("contrast", others[0], sentence, weight))
    ranked = sorted(both, key=lambda m: -m.strength)
    return [*ranked, *cued(terms, passages, contrast_cue, "contrast", limit=limit)][:limit]


def setup(selection: Selection, passages: Sequence[Passage]) -> list[Material]:
    """The sentence before the selection when the selection continues from it (and the
    one before that when the sentence before is a bare formula)."""
    if not _OPENS_ON_BEFORE.match(selection.text) or not selection.spans:
        return []
    before = _sentences_before(selection.spans[0], passages)
    if not before:
        return []
    chosen = [before[-1]]
    if len(before) > 1 and _formula_like(before[-1].text):
        chosen.insert(0, before[-2])
    return [Material("setup", "", piece, 2.0) for piece in chosen]


def _sentences_before(span: BlockSpan, passages: Sequence[Passage]) -> list[Piece]:
    """The sentences before ``span`` in its block, after the last two of each of the two
    blocks before (a formula is a block of its own between a sentence and its "where")."""
    for index, passage in enumerate(passages):
        piece = passage.piece
        if piece.span.block_id == span.block_id and piece.span.start <= span.start:
            earlier = [s for p in passages[max(index - 2, 0) : index] for s in sentences(p)[-2:]]
            own = [s for s in sentences(passage) if s.span.end <= span.start]
            return [*earlier, *own]
    return []


def _formula_like(text: str) -> bool:
    return "=" in text and not text.rstrip().endswith((".", "。", ":", "："))


def _unique(found: Sequence[Material]) -> list[Material]:
    """Each sentence once, where it first came (a definition that is also the set-up)."""
    seen: set[BlockSpan] = set()
    out = []
    for material in found:
        if material.piece.span not in seen:
            seen.add(material.piece.span)
            out.append(material)
    return out
