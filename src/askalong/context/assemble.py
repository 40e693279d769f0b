"""The final context: anchor, then cross-references, then retrieved units, overlaps removed,
within a budget (``units.CONTEXT_BUDGET``: size units, not characters), each with its drift
(``drift.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from askalong.context.drift import unit_drift
from askalong.context.units import CONTEXT_BUDGET, Budget, ContextUnit, subtract_all
from askalong.types import CHUNK_JOINER, BlockSpan


def assemble_context(
    terms: frozenset[str],
    anchor_unit: ContextUnit | None,
    crossref: Sequence[ContextUnit],
    retrieved: Sequence[ContextUnit],
    *,
    budget: Budget = CONTEXT_BUDGET,
    root: tuple[str, ...] = (),
) -> list[ContextUnit]:
    """The context the answerer reads, in this order: the anchor unit, the cross-referenced
    units, the retrieved units.

    Text already held by an earlier unit is cut out of a later one; a unit whose cited
    spans are all held already is dropped (its evidence is there). Units are kept in order
    while the total of ``budget.measure`` over their texts stays within ``budget.limit``
    (one that does not fit is skipped, a smaller later one may still come in); the anchor
    unit is always kept. Each unit gets
    its ``drift`` relative to the anchor unit, measured against ``terms`` (``drift_terms``:
    the question's and the anchor's); ``root`` is ``section_root(blocks)`` of the anchor's
    document.
    """
    candidates = [*([anchor_unit] if anchor_unit is not None else []), *crossref, *retrieved]
    kept: list[ContextUnit] = []
    covered: dict[str, list[BlockSpan]] = {}
    total = 0
    for candidate in candidates:
        unit = _without(candidate, covered.get(candidate.document_id, []))
        cost = 0 if unit is None else budget.measure(unit.text)
        if unit is None or (kept and total + cost > budget.limit):
            continue
        kept.append(unit)
        covered.setdefault(unit.document_id, []).extend(unit.spans)
        total += cost
    return [replace(unit, drift=unit_drift(terms, unit, anchor_unit, root)) for unit in kept]


def _without(unit: ContextUnit, covered: Sequence[BlockSpan]) -> ContextUnit | None:
    """``unit`` minus the text in ``covered``; None when none of its cited text is left."""
    pieces = subtract_all(unit.pieces, covered)
    if [p.span for p in pieces] == list(unit.spans):
        return unit
    cited = tuple(
        BlockSpan(c.block_id, max(c.start, p.span.start), min(c.end, p.span.end))
        for c in unit.cited_spans
        for p in pieces
        if p.span.block_id == c.block_id and c.start < p.span.end and p.span.start < c.end
    )
    if not cited:
        return None
    return replace(
        unit,
        text=CHUNK_JOINER.join(p.text for p in pieces),
        spans=tuple(p.span for p in pieces),
        cited_spans=cited,
    )
