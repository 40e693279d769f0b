"""Drift signals and the final context: anchor, then cross-references, then retrieved units.

Drift tells the answerer (and the verifier) how far a unit strays: ``term_overlap`` is
the share of the key terms of the question and of the anchor's cited text found in the
unit (none at all -> ``weak``); ``distance`` compares section paths with the anchor's:
the same full path is ``same_section``; below the document's root (the path prefix all
its blocks share, often the title), a shared first element or a path inside the other is
``same_chapter``; anything else in the document is ``elsewhere``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from askalong.context import TOTAL_CHARS, ContextUnit, Distance, Drift, subtract
from askalong.text import key_terms
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Block, BlockSpan


def section_root(blocks: Sequence[Block]) -> tuple[str, ...]:
    """The section-path prefix that every body block with a path shares (often the title)."""
    root: tuple[str, ...] | None = None
    for block in blocks:
        path = block.section_path
        if block.kind in FURNITURE_KINDS or not path:
            continue
        if root is None:
            root = path
            continue
        common = 0
        while common < min(len(root), len(path)) and root[common] == path[common]:
            common += 1
        root = root[:common]
        if not root:
            break
    return root or ()


def structural_distance(
    anchor: ContextUnit, unit: ContextUnit, *, root: tuple[str, ...] = ()
) -> Distance:
    """Where ``unit`` sits relative to ``anchor`` (see the module docstring)."""
    if unit.document_id != anchor.document_id:
        return "other_document"
    if unit.section_path == anchor.section_path:
        return "same_section"
    mine, theirs = _below(anchor.section_path, root), _below(unit.section_path, root)
    shorter = min(len(mine), len(theirs))
    if mine[:shorter] == theirs[:shorter] or mine[0] == theirs[0]:
        return "same_chapter"
    return "elsewhere"


def _below(path: tuple[str, ...], root: tuple[str, ...]) -> tuple[str, ...]:
    return path[len(root) :] if path[: len(root)] == root else path


def drift_terms(question: str, anchor: ContextUnit | None = None) -> frozenset[str]:
    """The key terms drift is measured against: the question's and the anchor's cited text's."""
    terms = key_terms(question)
    if anchor is not None:
        terms |= key_terms(anchor.cited_text())
    return frozenset(terms)


def drift(
    question: str,
    unit: ContextUnit,
    anchor: ContextUnit | None = None,
    *,
    root: tuple[str, ...] = (),
) -> Drift:
    """The drift signals of ``unit`` for ``question`` asked at ``anchor`` (if any).

    With no key terms to look for (a question of stop words and no anchor), the overlap is
    0 and the unit is not called weak: there is nothing it could have missed."""
    return _drift(drift_terms(question, anchor), unit, anchor, root)


def _drift(
    terms: frozenset[str], unit: ContextUnit, anchor: ContextUnit | None, root: tuple[str, ...]
) -> Drift:
    found = terms & key_terms(unit.text)
    overlap = len(found) / len(terms) if terms else 0.0
    distance = None if anchor is None else structural_distance(anchor, unit, root=root)
    return Drift(term_overlap=overlap, weak=bool(terms) and not found, distance=distance)


def assemble_context(
    question: str,
    anchor_unit: ContextUnit | None,
    crossref: Sequence[ContextUnit],
    retrieved: Sequence[ContextUnit],
    *,
    total_chars: int = TOTAL_CHARS,
    root: tuple[str, ...] = (),
) -> list[ContextUnit]:
    """The context the answerer reads, in this order: the anchor unit, the cross-referenced
    units, the retrieved units.

    Text already held by an earlier unit is cut out of a later one; a unit whose cited
    spans are all held already is dropped (its evidence is there). Units are kept in order
    while the total stays within ``total_chars`` (one that does not fit is skipped, a
    smaller later one may still come in); the anchor unit is always kept. Each unit gets
    its ``drift`` relative to the anchor unit; ``root`` is ``section_root(blocks)`` of the
    anchor's document.
    """
    candidates = [*([anchor_unit] if anchor_unit is not None else []), *crossref, *retrieved]
    kept: list[ContextUnit] = []
    covered: dict[str, list[BlockSpan]] = {}
    total = 0
    for candidate in candidates:
        unit = _without(candidate, covered.get(candidate.document_id, []))
        if unit is None or (kept and total + len(unit.text) > total_chars):
            continue
        kept.append(unit)
        covered.setdefault(unit.document_id, []).extend(unit.spans)
        total += len(unit.text)
    terms = drift_terms(question, anchor_unit)
    return [replace(unit, drift=_drift(terms, unit, anchor_unit, root)) for unit in kept]


def _without(unit: ContextUnit, covered: Sequence[BlockSpan]) -> ContextUnit | None:
    """``unit`` minus the text in ``covered``; None when none of its cited text is left."""
    pieces = [part for piece in unit.pieces for part in subtract(piece, covered)]
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
