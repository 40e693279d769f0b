"""Word boundaries the recogniser dropped, restored from white gaps in the page image.

PP-OCR reads English lines well but often runs words together ("Operationissimilar
tomulti-track"). The printed page still shows the spaces: a column of the line's image
with no ink that is wider than a letter gap is a word gap. The recogniser reports a
horizontal cell per character, so each wide gap falls between two known characters, and
a space goes there when the text has none. Chinese needs no spaces and gets none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

# A pixel darker than this (0 black .. 255 white) is ink.
_INK_LEVEL = 150
# A white run at least this share of the line box height (and this many pixels) is a word
# gap; letter gaps in print stay under about a tenth of the line height.
_GAP_PER_HEIGHT = 0.15
_MIN_GAP_PIXELS = 3.5
# Characters between which a missing space is restored: Latin letters, digits, and
# punctuation that is followed by a word in English (",", ".", ")").
_WORDISH = re.compile(r"[A-Za-z0-9\u00c0-\u024f]")
_BEFORE_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f,.;:!?)\]”’%]")
_AFTER_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f(\[“‘]")

Span = tuple[float, float]


def ink_gaps(gray: npt.NDArray[np.uint8]) -> list[Span]:
    """The wide white runs (x from, x to, in pixels of ``gray``) between inked columns."""
    height, width = gray.shape
    if not height or not width:
        return []
    inked = (gray < _INK_LEVEL).any(axis=0)
    columns = np.flatnonzero(inked)
    if columns.size < 2:
        return []
    steps = np.diff(columns)
    least = max(_MIN_GAP_PIXELS, _GAP_PER_HEIGHT * height)
    wide = np.flatnonzero(steps - 1 >= least)
    return [(float(columns[i] + 1), float(columns[i + 1])) for i in wide]


def restore_spaces(text: str, cells: Sequence[Span], gaps: Sequence[Span]) -> str:
    """``text`` with a space put into every wide gap that falls between two characters.

    ``cells`` are the characters' horizontal extents (one per character of ``text``), in
    the same coordinates as ``gaps``.
    """
    if len(cells) != len(text) or not gaps:
        return text
    middles = [(left + right) / 2 for left, right in cells]
    cuts = {_boundary(middles, (start + end) / 2) for start, end in gaps}
    out: list[str] = []
    for index, char in enumerate(text):
        if index in cuts and _wants_space(text, index):
            out.append(" ")
        out.append(char)
    return "".join(out)


def _boundary(middles: Sequence[float], x: float) -> int:
    """The index of the first character whose middle lies right of ``x``."""
    return int(np.searchsorted(np.asarray(middles), x))


def _wants_space(text: str, index: int) -> bool:
    if index <= 0 or index >= len(text):
        return False
    before, after = text[index - 1], text[index]
    if before == " " or after == " ":
        return False
    if not (_WORDISH.match(before) or _WORDISH.match(after)):
        return False
    return bool(_BEFORE_WORD.match(before) and _AFTER_WORD.match(after))
