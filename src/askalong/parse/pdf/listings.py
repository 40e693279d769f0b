"""Numbered code listings: printed line numbers dropped, the listing one code block.

A LaTeX listing prints a number before each line ("14 \\msg_new:nnnn ..."), in a column
of its own. Read as text, the number glues into the code and the listing reads as prose.
Lines of one page that open with consecutive numbers at the same left edge, code among
them, are listing lines: the number is dropped, and a block made of them is code, one
printed line to a text line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from askalong.parse.navigation import is_toc_entry
from askalong.parse.pdf.chars import Line

_NUMBERED = re.compile(r"^\s*(\d{1,4})(?![.)\d:,])\s*(?=\S)")
_CODE_SIGNS = re.compile(r"[{}();=\\<>#\[\]$/]")
_MIN_RUN = 3
_SAME_EDGE = 3.0  # points: numbers of one listing stand at one left edge
_DIGIT_WIDTH = 0.5  # of the font size


def strip_line_numbers(lines: Sequence[Line]) -> tuple[tuple[Line, ...], frozenset[Line]]:
    """The page's lines with listing numbers dropped, and the listing lines among them."""
    runs = _listing_runs(lines)
    stripped = {index: _without_number(lines[index]) for run in runs for index in run}
    out = tuple(stripped.get(index, line) for index, line in enumerate(lines))
    return out, frozenset(stripped.values())


def _listing_runs(lines: Sequence[Line]) -> list[list[int]]:
    """Runs of line indices, top to bottom at one left edge, numbered n, n+1, n+2 ..."""
    numbered = [(i, int(m.group(1))) for i, m in _matches(lines)]
    numbered.sort(key=lambda item: (round(lines[item[0]].x0 / _SAME_EDGE), lines[item[0]].top))
    runs: list[list[int]] = []
    run: list[int] = []
    last: tuple[float, int] | None = None
    for index, number in numbered:
        edge = lines[index].x0
        if last is not None and abs(edge - last[0]) <= _SAME_EDGE and number == last[1] + 1:
            run.append(index)
        else:
            runs.append(run)
            run = [index]
        last = (edge, number)
    runs.append(run)
    return [run for run in runs if len(run) >= _MIN_RUN and _reads_as_code(lines, run)]


def _matches(lines: Sequence[Line]) -> Iterable[tuple[int, re.Match[str]]]:
    for index, line in enumerate(lines):
        match = _NUMBERED.match(line.text)
        if match and not line.role and not is_toc_entry(line.text):
            yield index, match


def _reads_as_code(lines: Sequence[Line], run: Sequence[int]) -> bool:
    return any(_CODE_SIGNS.search(_NUMBERED.sub("", lines[i].text)) for i in run)


def _without_number(line: Line) -> Line:
    match = _NUMBERED.match(line.text)
    assert match is not None
    cut = match.end()
    shift = min(cut * _DIGIT_WIDTH * line.size, max(line.x1 - line.x0 - 1, 0))
    cells = line.cells[1:] if len(line.cells) > 2 else ()
    return replace(line, text=line.text[cut:], x0=line.x0 + shift, cells=cells)


def is_listing(group: Sequence[Line], listing: frozenset[Line]) -> bool:
    """Whether most of a block's lines are listing lines."""
    return bool(listing) and sum(line in listing for line in group) * 2 > len(group)
