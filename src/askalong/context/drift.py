"""Drift signals: how far a unit strays from the question and the anchor (pure).

``term_overlap`` is the share of the key terms of the question and of the anchor's cited
text found in the unit (none at all -> ``weak``); ``distance`` compares section paths with
the anchor's: the same full path is ``same_section``; below the document's root (the path
prefix all its blocks share, often the title), a shared first element or a path inside the
other is ``same_chapter``; anything else in the document is ``elsewhere``.
"""

from __future__ import annotations

from askalong.context.units import ContextUnit, Distance, Drift
from askalong.text.tokens import key_terms


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
    return frozenset(key_terms(question)) | anchor_terms(anchor)


def anchor_terms(anchor: ContextUnit | None) -> frozenset[str]:
    """The key terms of the anchor's cited text (none without an anchor)."""
    return frozenset(key_terms(anchor.cited_text())) if anchor is not None else frozenset()


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
    return unit_drift(drift_terms(question, anchor), unit, anchor, root)


def unit_drift(
    terms: frozenset[str], unit: ContextUnit, anchor: ContextUnit | None, root: tuple[str, ...]
) -> Drift:
    found = terms & key_terms(unit.text)
    overlap = len(found) / len(terms) if terms else 0.0
    distance = None if anchor is None else structural_distance(anchor, unit, root=root)
    return Drift(term_overlap=overlap, weak=bool(terms) and not found, distance=distance)
