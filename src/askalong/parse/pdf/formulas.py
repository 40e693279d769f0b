"""Display formulas in one column: kept apart from the prose around them.

A line is a display formula when it holds a mathematical sign and little prose, and
either ends with an equation number ("(2)") or stands indented from both edges of its
column. Neighbouring formula lines, and the lines sharing their printed rows (limits,
fraction parts, a detached equation number), become one stand-in line (role
"formula"), which reading order keeps as one block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.parse.pdf.printed import Line
from askalong.parse.pdf.tables import stand_in

_MATH = re.compile(r"[=<>≤≥≈≠∈∉⊂⊆∑∏∫√∂∇±×÷→↦∀∃∞]|[−+]\s*\S")
_RELATION = re.compile(r"[=<>≤≥≈≠∈∉⊂⊆∑∏∫√∂∇∀∃]")
# Program text and addresses hold "=" too: a statement's ";", a comment, a string.
_NOT_MATH = re.compile(r"[，；。]|[;{]$|#|\"|\\[A-Za-z]|//|://|www\.|\.org|@")
_EQUATION_NUMBER = re.compile(r"\(\s*(?:\d{1,3}(?:\.\d{1,3})?[a-z]?|[A-Z]\.?\d{1,3})\s*\)$")
# Prose words: runs of four or more letters ("where", "distance"); a formula has few.
_PROSE_WORD = re.compile(r"[^\W\d_]{4,}")
_MAX_PROSE_WORDS = 3
_CJK_PROSE = re.compile(r"[\u4e00-\u9fff]{5,}")
# A centred formula sits further than this many font sizes from both column edges.
_INDENT_SIZES = 2.0
_CENTRED_SHARE = 0.3
_SENTENCE_END = (".", "。", ":", "：")


def mark_formulas(column: Sequence[Line], left: float, right: float) -> list[Line]:
    """``column`` (in reading order) with each display formula as one stand-in line."""
    flags = [_is_formula(line, left, right) for line in column]
    if not any(flags):
        return list(column)
    _spread(column, flags)
    out: list[Line] = []
    index = 0
    while index < len(column):
        if not flags[index]:
            out.append(column[index])
            index += 1
            continue
        end = index
        while end + 1 < len(column) and flags[end + 1] and _close(column[end], column[end + 1]):
            end += 1
        out.append(stand_in("formula", tuple((line,) for line in column[index : end + 1])))
        index = end + 1
    return out


def _is_formula(line: Line, left: float, right: float) -> bool:
    if line.role or line.run_in:
        return False
    text = line.text.strip()
    if _prose(text) or _NOT_MATH.search(text):
        return False
    if _EQUATION_NUMBER.search(text):
        return bool(_MATH.search(text))
    if not _RELATION.search(text) or text.endswith(_SENTENCE_END):
        return False
    # Centred: set in from both edges, by about as much (code is indented on the left).
    before, after = line.x0 - left, right - line.x1
    indent = _INDENT_SIZES * max(line.size, 1.0)
    return min(before, after) > indent and abs(before - after) < _CENTRED_SHARE * (right - left)


def _prose(text: str) -> bool:
    return len(_PROSE_WORD.findall(text)) > _MAX_PROSE_WORDS or bool(_CJK_PROSE.search(text))


def _spread(column: Sequence[Line], flags: list[bool]) -> None:
    """Flag the lines printed within a formula's rows: limits, a lone "(3)"."""
    for index, line in enumerate(column):
        if flags[index] or _prose(line.text):
            continue
        middle = (line.top + line.bottom) / 2
        for other in (index - 1, index + 1):
            if 0 <= other < len(column) and flags[other]:
                formula = column[other]
                if formula.top <= middle <= formula.bottom:
                    flags[index] = True


def _close(one: Line, two: Line) -> bool:
    """Two formula lines of one display: no more than a line's height apart."""
    return two.top - one.bottom < max(one.size, two.size, 1.0)
