"""Text inside a figure (axis labels, legends, boxes of a diagram) read after its caption.

pdfium gives a figure's labels as text like any other, above the figure's caption and
so before it in reading order, between the body text and the caption. Those label
groups (short, not prose, printed above the caption and overlapping it sideways) are
moved to just after the caption, so the body's prose runs on to the caption and the
figure's bits follow it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.parse.pdf.printed import Line

FIGURE_CAPTION = re.compile(
    r"^\s*(?:Figure|Fig\.|FIGURE|FIG\.)\s*\d+[A-Za-z]?\s*[:.|]|^\s*图\s*[0-9]"
)
_PROSE_WORD = re.compile(r"[^\W\d_]{3,}")
# A line of prose holds at least this many words; figure labels hold fewer.
_PROSE_WORDS = 8
_SENTENCE_END = (".", "。", "?", "!")

Group = tuple[Line, ...]


def labels_after_captions(groups: Sequence[Group]) -> list[Group]:
    """``groups`` (one page, in reading order) with figure labels after their caption."""
    out: list[Group] = []
    for group in groups:
        if not FIGURE_CAPTION.match(group[0].text):
            out.append(group)
            continue
        labels: list[Group] = []
        while out and _label_of(out[-1], group[0]):
            labels.insert(0, out.pop())
        out.append(group)
        out.extend(labels)
    return out


def _label_of(group: Group, caption: Line) -> bool:
    """Whether ``group`` looks like text inside the figure above ``caption``."""
    if any(line.role or line.run_in for line in group):
        return False
    if max(line.bottom for line in group) > caption.top + 1:
        return False
    left, right = min(line.x0 for line in group), max(line.x1 for line in group)
    if right < caption.x0 - caption.size * 4 or left > caption.x1 + caption.size * 4:
        return False
    text = " ".join(line.text for line in group).strip()
    ended = text.endswith(_SENTENCE_END) and not text.endswith("...")
    if FIGURE_CAPTION.match(text) or ended:
        return False
    return all(len(_PROSE_WORD.findall(line.text)) < _PROSE_WORDS for line in group)
