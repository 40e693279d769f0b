"""Where a line of wrapped Chinese plain text ended on purpose (issue 32: unseen documents).

Chinese text wraps between any two characters, and joining its lines drops the break
(``builder.clean_text``). A line that stops early, with room left for the next line's first
character, was ended by its writer, not by the wrap: a statement without a full stop
("新增一行記錄" over "記錄中會包含…" in a man page rendered to text). Read as one paragraph,
such lines make a run-on "sentence" the answerer can only quote whole; cut there, each is its
own paragraph. The paragraph's widest line is its wrap width; a line is short when the next
line's first character and one more would still fit (one character of room is what a line
ending before a mark that may not open a line leaves). Only wrapped text is read so: at least
two of the paragraph's lines reach its width (a short title over one long line, a paragraph
a line, is left as it was: cutting those moved answers out of their passages, DEV). A line
holding Latin words is not judged: a renderer wraps those at spaces, so it may stop early
inside a Chinese sentence ("teatime (下" over "午4點)"), and Latin lines' wraps already read
as spaces. Nor is a line ending in a clause mark ("，", "、"): a writer who breaks lines by
clause goes on with the sentence on the next.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise

from askalong.text.scripts import is_cjk

SLACK = 2  # columns: one wide character, the room a wrap may leave before a closing mark
_LATIN = re.compile(r"[A-Za-z]")
_CLAUSE_MARKS = frozenset("，、；：,;:")


def width(text: str) -> int:
    """Display columns: wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def ended_lines(lines: tuple[str, ...]) -> list[int]:
    """Indexes of the lines (stripped, one paragraph's) after which the writer ended a line
    of Chinese text: each is the last line of its own paragraph."""
    widths = [width(line) for line in lines]
    wrap = max(widths, default=0)
    if sum(w + SLACK >= wrap for w in widths) < 2:
        return []  # no two lines reach one width: not wrapped text (a title over its line)
    return [
        i
        for i, (line, after) in enumerate(pairwise(lines))
        if _chinese_break(line, after) and widths[i] + width(after[0]) + SLACK <= wrap
    ]


def _chinese_break(line: str, after: str) -> bool:
    """The line, all Chinese, ends so and the next begins so: a wrap there would have
    vanished."""
    if not (line and after) or line[-1] in _CLAUSE_MARKS or _LATIN.search(line):
        return False
    return _wide(line[-1]) and _wide(after[0])


def _wide(char: str) -> bool:
    return is_cjk(char) or unicodedata.east_asian_width(char) in "WF"
