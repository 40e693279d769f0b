"""Where a candidate sentence stands relative to the reader's selection, for the intent head
(``features.PLACE``): an example, a definition or a contrast is often written next to what
it explains, and an example is often code. The intent head (``training/intent_head.py``)
learns how much each of these counts for Explain, Example and Compare; nothing here weighs
them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.context.material import Selection
from askalong.context.units import ContextUnit


def place_rows(
    found: Sequence[Candidate],
    selection: Selection,
    units: Sequence[ContextUnit],
    terms: Sequence[str],
) -> np.ndarray:
    """One ``PLACE`` row per candidate: after the selection (its block comes later in the
    selection's document), nearness (1 in the selection's block, 1 / (1 + blocks between)),
    in the selection's section, a code block, in the selection's own unit, whether it
    names one of the selection's key ``terms``, and nearness where it does (a near
    sentence on another subject is no explanation of this one)."""
    at = _selected_orders(units, selection)
    asked = [t.lower() for t in terms]
    rows = []
    for c in found:
        names = float(any(t in c.text.lower() for t in asked))
        order = _order(units, c) if at else None
        after = float(order is not None and order > max(at))
        near = 0.0 if order is None else 1.0 / (1.0 + min(abs(order - a) for a in at))
        same_section = float(c.drift is not None and c.drift.distance == "same_section")
        code, own = float(c.kind == "code"), float(c.unit == 0)
        rows.append((after, near, same_section, code, own, names, near * names))
    return np.array(rows, dtype=np.float32).reshape(len(found), 7)


def _selected_orders(units: Sequence[ContextUnit], selection: Selection) -> list[int]:
    """The document order of the selection's blocks (the anchor unit is the first)."""
    if not units:
        return []
    orders = [units[0].place(s.block_id).order for s in selection.spans]
    return [o for o in orders if o is not None]


def _order(units: Sequence[ContextUnit], candidate: Candidate) -> int | None:
    """The candidate's block's document order, where it is the selection's document."""
    unit = units[candidate.unit]
    if unit.document_id != units[0].document_id:
        return None
    return unit.place(candidate.block_id).order
