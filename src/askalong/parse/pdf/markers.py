"""Footnote markers: a raised number glued to a word ("SCIDOCS3") or opening a note.

pdfium gives a superscript digit as a plain digit with no space, so "SCIDOCS³" would
read "SCIDOCS3", a different word. A digit run after a word (or before one, at the
start of a footnote) that is set raised and smaller than its neighbour is written with
Unicode superscript digits: "SCIDOCS³", and "³ https://..." for the note it points to,
so the marker still reads as printed and matches its footnote's number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Digits right after a word or its closing punctuation ("SCIDOCS3 ,", "tasks.7"), or
# right before a word at a word start ("3https", "4We"); only raised ones are markers.
# A path's last letter counts as a word ("X:\\Y3"), and Chinese may follow ("book1提供").
_AFTER_WORD = re.compile(
    r"(?<=[^\W\d_]{2}|[^\W\d_][.,;:)”\"]|[\\/][^\W\d_])([0-9]{1,2})"
    r"(?=[\s,.;:)\]\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]|$)"
)
_BEFORE_WORD = re.compile(r"(?<![^\s])([0-9]{1,2})(\s{0,2})(?=[^\W\d_]{2})")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# A marker's glyphs sit this share of the neighbour's height above its bottom, and are no
# taller than it (a small-caps neighbour is about as small as the marker).
_RAISE_SHARE = 0.25
_SMALL_SHARE = 1.0

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF space (y up)


@dataclass(frozen=True, slots=True)
class Mark:
    """One candidate marker: characters ``start:end`` of the page text."""

    start: int
    end: int
    neighbour: int  # the character it is compared with: the word's last or first
    leading: bool  # it opens a note ("3https") rather than follows a word


def candidates(text: str) -> list[Mark]:
    """The digit runs of the page text that may be footnote markers, in text order."""
    marks = [Mark(m.start(), m.end(), m.start() - 1, False) for m in _AFTER_WORD.finditer(text)]
    marks += [Mark(m.start(), m.end(1), m.end(), True) for m in _BEFORE_WORD.finditer(text)]
    return sorted(marks, key=lambda mark: mark.start)


def raised(marker: Box, neighbour: Box) -> bool:
    """Whether ``marker`` is set as a superscript beside ``neighbour``."""
    height = neighbour[3] - neighbour[1]
    if height <= 0:
        return False
    higher = marker[1] > neighbour[1] + _RAISE_SHARE * height
    if not higher or marker[3] - marker[1] >= _SMALL_SHARE * height:
        return False
    # On the neighbour's printed line, right beside it (not a number set above a title).
    gap = max(marker[0] - neighbour[2], neighbour[0] - marker[2])
    return marker[1] < neighbour[3] and gap < height


def rewrite(piece: str, offset: int, mark: Mark) -> str:
    """``piece`` (a run starting at page index ``offset``) with ``mark`` superscript."""
    start, end = mark.start - offset, mark.end - offset
    digits = piece[start:end].translate(_SUPERSCRIPT)
    joiner = " " if mark.leading and not piece[end:].startswith(" ") else ""
    return piece[:start] + digits + joiner + piece[end:]
