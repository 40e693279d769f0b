"""What stands beside a selection in its unit: the rest of its first and last sentences,
the sentence after it, the sentences around it. Explain / Example / Compare answers quote
these whatever else they find (``intents``), and the learned intent scorer leaves them out
of its candidates (``intent_learned``).
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.context.continuation import from_word, running
from askalong.context.explain_units import unit_passages
from askalong.context.material import Passage, Selection, sentences
from askalong.context.units import ContextUnit, Piece, trimmed

HEADING_CHARS = 40
SENTENCE_END = frozenset(".!?;:。！？；：")
BESIDE_CHARS = 20  # a shorter rest of the selection's sentence says nothing


def quoted_beside(selection: Selection, anchor: ContextUnit) -> tuple[list[Piece], list[Piece]]:
    """What a learned intent's answer quotes beside the selection whatever sentence the
    scorer ranks best: the rest of the selected sentence, and the sentence after it, else
    the sentences around it."""
    passages = running_text(anchor, selection)
    rest, after = beside(selection, passages)
    return rest, after or near_sentences(selection, passages)


def before(piece: Piece, selection: Selection) -> bool:
    """Whether ``piece`` ends before the selection starts in its block."""
    starts = [s.start for s in selection.spans if s.block_id == piece.span.block_id]
    return bool(starts) and piece.span.end <= min(starts)


def running_text(anchor: ContextUnit, selection: Selection) -> list[Passage]:
    """The anchor unit's running text and the selected block: a footnote, caption or
    page number next to the selection is not what it goes on with."""
    passages = unit_passages(anchor)
    return [p for p in passages if running(p) or selection.overlaps(p.piece.span)]


def near_sentences(selection: Selection, passages: Sequence[Passage]) -> list[Piece]:
    """The last sentence before the selection and the first after it, in the unit."""
    every = [s for p in passages for s in sentences(p)]
    inside = [k for k, s in enumerate(every) if selection.overlaps(s.span)]
    if not inside:
        return []
    picked = [k for k in (inside[0] - 1, inside[-1] + 1) if 0 <= k < len(every)]
    near = [every[k] for k in picked if not selection.overlaps(every[k].span)]
    # a heading ("1 引言") says nothing of the selection's context
    return [p for p in near if len(p.text) >= HEADING_CHARS or p.text[-1:] in SENTENCE_END]


def beside(selection: Selection, passages: Sequence[Passage]) -> tuple[list[Piece], list[Piece]]:
    """The rest of the selection's first and last sentences (the words before and after
    the selected part), and the sentence after it when the selection ends its sentence."""
    every = [s for p in passages for s in sentences(p)]
    inside = [k for k, s in enumerate(every) if selection.overlaps(s.span)]
    if not inside:
        return [], []
    first, last = every[inside[0]], every[inside[-1]]
    parts = [
        outside_part(first, selection, before=True),
        outside_part(last, selection, before=False),
    ]
    rest = [p for p in parts if p is not None and len(p.text) >= BESIDE_CHARS]
    after = []
    if not any(p.span.start > last.span.start for p in rest):
        nxt = inside[-1] + 1
        if nxt < len(every) and not selection.overlaps(every[nxt].span):
            after.append(every[nxt])
    return rest, after


def outside_part(sentence: Piece, selection: Selection, *, before: bool) -> Piece | None:
    """The part of ``sentence`` before (or after) the selection's span in its block."""
    spans = [s for s in selection.spans if s.block_id == sentence.span.block_id]
    if not spans:
        return None
    base = sentence.span.start
    if before:
        cut = min(s.start for s in spans) - base
        return trimmed(sentence, 0, cut) if cut > 0 else None
    end = max(s.end for s in spans)
    return from_word(sentence, end) if end - base < len(sentence.text) else None
