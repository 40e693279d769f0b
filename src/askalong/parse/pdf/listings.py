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
from askalong.parse.pdf.printed import Line

_NUMBERED = re.compile(r"^\s*(\d{1,4})(?![.)\d:,])\s*(?=\S)")
_BARE = re.compile(r"^\s*(\d{1,5})\s*$")
_CODE_SIGNS = re.compile(r"[{}();=\\<>#\[\]$/]")
_MIN_RUN = 3
_SAME_EDGE = 3.0  # points: numbers of one listing stand at one left edge
_DIGIT_WIDTH = 0.5  # of the font size


def strip_line_numbers(lines: Sequence[Line]) -> tuple[tuple[Line, ...], frozenset[Line]]:
    """The page's lines with listing numbers dropped, and the listing lines among them.

    A number is glued to its code line ("14 \\msg_new") or a line of its own beside it
    (pdfium splits a row set in two fonts): then the number's line goes and the code
    line beside it is a listing line."""
    candidates = sorted([*_matches(lines), *_bare_numbers(lines)], key=lambda item: item[0])
    listed = [i for run in _listing_runs(lines, candidates) for i in run]
    bare = {i for i in listed if _BARE.match(lines[i].text)}
    stripped = {i: _without_number(lines[i]) for i in listed if i not in bare}
    for index in bare:
        partner = _beside(lines, index)
        if partner is not None:
            stripped.setdefault(partner, lines[partner])
    out = tuple(stripped.get(i, line) for i, line in enumerate(lines) if i not in bare)
    return out, frozenset(stripped.values())


def _bare_numbers(lines: Sequence[Line]) -> Iterable[tuple[int, re.Match[str]]]:
    for index, line in enumerate(lines):
        match = _BARE.match(line.text)
        if match and not line.role:
            yield index, match


def _beside(lines: Sequence[Line], index: int) -> int | None:
    """The line printed right of line ``index`` on the same row, if any."""
    number = lines[index]
    row = [
        i
        for i, line in enumerate(lines)
        if i != index
        and line.x0 > number.x1
        and line.top < number.bottom
        and line.bottom > number.top
    ]
    return min(row, key=lambda i: lines[i].x0) if row else None


def _listing_runs(
    lines: Sequence[Line], matches: Iterable[tuple[int, re.Match[str]]]
) -> list[list[int]]:
    """Runs of line indices, top to bottom at one left edge, numbered n, n+1, n+2 ...,
    that read as code."""
    numbered = [(i, int(m.group(1))) for i, m in matches]
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
    """Whether the run's code (after a glued number, or beside a bare one) has code signs."""
    texts = []
    for index in run:
        partner = _beside(lines, index) if _BARE.match(lines[index].text) else index
        if partner is not None:
            texts.append(_NUMBERED.sub("", lines[partner].text))
    return any(_CODE_SIGNS.search(text) for text in texts)


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
