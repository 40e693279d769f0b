"""What a selection might be compared with (pure): the suggestions of the reader's
"Compare with…" box.

A comparison needs a second term, and the document usually names it near the selection
or in a heading: the rare key terms of the selection's neighbourhood that the selection
does not hold itself (weighted as ``context.explain.selection_terms`` weighs them, against
the whole document) that name something (an acronym, a capitalised name), then the
titles of the document's other sections, nearest first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.context.anchor import LocatedAnchor, located_context
from askalong.context.definitions import is_acronym
from askalong.context.explain import selection_terms
from askalong.context.material import Passage
from askalong.context.outline import Outline
from askalong.context.units import Piece
from askalong.types import FURNITURE_KINDS, Block, BlockSpan

MAX_TARGETS = 8
MAX_TITLE_CHARS = 60
_NEAR_NAMES = 6  # as many as selection_terms gave before it knew phrases


def compare_targets(
    blocks: Sequence[Block], located: LocatedAnchor | None, *, limit: int = MAX_TARGETS
) -> list[str]:
    """Up to ``limit`` things to compare the anchored selection with (``located`` in
    ``blocks``, one document's in reading order); headings only without an anchor."""
    passages = [_passage(b) for b in blocks if b.kind not in FURNITURE_KINDS and b.text.strip()]
    found: list[str] = []
    own_section: tuple[str, ...] = ()
    if located is not None:
        unit = located_context(blocks, located)
        own_section = unit.section_path
        selected = {t.lower() for t in selection_terms(unit.cited_text(), passages)}
        # all of them, then the names: the unit's phrases would crowd its names out
        near = selection_terms(unit.text, passages, limit=len(unit.text))
        named = [t for t in near if t.lower() not in selected and " " not in t]
        named = [t for t in named if _named(t, unit.text)]
        found += named[:_NEAR_NAMES]
    found += _titles(Outline(blocks), own_section, 0 if located is None else located.index)
    unique = list(dict.fromkeys(found))
    return unique[:limit]


def _named(term: str, text: str) -> bool:
    """Whether ``term`` names a thing one compares with: an acronym, a word capitalised
    inside a sentence ("SciBERT", "Citeomatic"), or a Chinese term (no capitals to tell)."""
    if is_acronym(term) or not term.isascii():
        return True
    if not term[:1].isupper():
        return False
    inside = re.search(rf"[a-z,]\s+{re.escape(term)}\b", text)  # not a sentence's first word
    return any(c.isupper() for c in term[1:]) or inside is not None


def _passage(block: Block) -> Passage:
    span = BlockSpan(block.id, 0, len(block.text))
    return Passage(Piece(span, block.text), block.section_path, block.kind)


def _titles(outline: Outline, own: Sequence[str], position: int) -> list[str]:
    """The titles (their numbers left out) of the headings outside the selection's own
    section, nearest to ``position`` first."""
    titles = []
    near = sorted(outline.headings, key=lambda h: abs(h.index - position))
    for heading in near:
        text = outline.blocks[heading.index].text.strip()
        title = heading.title if heading.number else text
        shown = (
            text[len(text) - len(title) :] if title and text.casefold().endswith(title) else text
        )
        if text not in own and 0 < len(shown) <= MAX_TITLE_CHARS:
            titles.append(shown.strip())
    return titles
