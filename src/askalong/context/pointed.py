"""What a selection points at, found in the document (pure): the caption, heading or
formula of the table / figure / section / equation it names ("Table 2", "表 1", "§3",
"Equation 1"), and the bibliography entry of each work it cites ("[12]",
"(Beltagy et al., 2019)"; ``citations``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.context.citations import Citation, citations, in_references, is_entry, runs_on
from askalong.context.crossref import CrossRef, detect_references
from askalong.context.material import Material, Passage, Selection, sentences
from askalong.context.units import trimmed


def referenced(selection: Selection, passages: Sequence[Passage]) -> list[Material]:
    """The caption / heading / formula of each part the selection points at."""
    found: list[Material] = []
    for ref in detect_references(selection.text):
        for passage in passages:
            if selection.overlaps(passage.piece.span) or not _part_like(passage):
                continue
            if names_part(ref, passage.piece.text):
                first = sentences(passage)[:1]
                found.extend(Material("reference", ref.phrase, s, 2.0) for s in first)
                break
    return found


def _part_like(passage: Passage) -> bool:
    """A caption, heading or formula: by its kind when known, else by its form (a label
    and a colon, "Table 2: …", or a short block; "Table 2 shows …" is a sentence)."""
    if passage.kind:
        return passage.kind in ("caption", "heading", "formula")
    text = passage.piece.text.lstrip()
    return len(text) < 120 or re.match(r"\S+\s*[\dA-Z.]+\s*[:：.]", text) is not None


def names_part(ref: CrossRef, text: str) -> bool:
    """Whether ``text`` (a block) is the caption, heading or formula that ``ref`` names."""
    n = re.escape(ref.target)
    head = text.lstrip()[:40]
    labels = {
        "table": r"(?:tables?|tab\.?|表)",
        "figure": r"(?:figures?|figs?\.?|图)",
        "appendix": r"(?:appendix|附录)",
    }
    if ref.kind in labels:
        return re.match(rf"{labels[ref.kind]}\s*{n}(?![\d.]\d)", head, re.IGNORECASE) is not None
    if ref.kind == "equation":
        return re.search(rf"[(（]\s*{n}\s*[)）]\s*$", text.rstrip()) is not None
    if ref.kind in ("section", "chapter") and ref.target:
        pattern = rf"(?:(?:section|chapter|§)\s*)?{n}\.?\s+\S|第\s*{n}\s*[章节]"
        return re.match(pattern, head, re.IGNORECASE) is not None and len(text) < 200
    return False


def cited(text: str, passages: Sequence[Passage]) -> list[Material]:
    """The bibliography entry of each work ``text`` cites: its first block, and the next
    one when the entry runs on into it."""
    refs = [p for p in passages if in_references(p.section_path)]
    found: list[Material] = []
    for citation in citations(text):
        found.extend(_entry(citation, refs))
    return found


def _entry(citation: Citation, refs: Sequence[Passage]) -> list[Material]:
    for index, passage in enumerate(refs):
        following = refs[index + 1].piece.text if index + 1 < len(refs) else ""
        if is_entry(citation, passage.piece.text, following):
            parts = [passage.piece]
            if following and runs_on(passage.piece.text):
                parts.append(refs[index + 1].piece)
            kept = [trimmed(p, 0, len(p.text)) for p in parts]
            return [Material("citation", citation.label, p, 2.0) for p in kept if p is not None]
    return []
