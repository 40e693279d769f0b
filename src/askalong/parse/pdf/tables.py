"""Tables on one page: a "Table n" caption and the rows of cells printed beside it.

A table is found from its caption, never from alignment alone (two columns of prose
also line up). From the caption the rows are walked away from it, above and below,
within the caption's column (or the whole page when the caption crosses the gutter),
until a row of prose, a section title or a wide gap; the side with more rows of several
cells wins. The table's lines are then replaced by one stand-in line (role "table")
holding its rows, so reading order places the table where it is printed, as one unit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.parse.pdf.printed import Line
from askalong.parse.pdf.text import BlockText, clean_line
from askalong.types import LineBox

TABLE_CAPTION = re.compile(r"^\s*(?:Table|TABLE|Tab\.)\s*[0-9IVX]+[A-Za-z]?\b|^\s*表\s*[0-9０-９]+")
_SECTION_TITLE = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+[A-Z]")
# "3 结果与讨论", "2.4.6 省略号": a section number, a gap, then a title without figures.
# One \s, not \s+: \D+ takes the rest of the gap (\s+\D+ overlapped, quadratic in the gap).
_NUMBERED_HEADING = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?\s\D+$|^\d{1,2}\.?\s+[^\W\d_][^\d]*$")
_ROW_GAP_SPREAD = 2.5
_MANY_CELLS = 4
_WORD = re.compile(r"[^\W\d_]{3,}")
_MIN_ROWS = 2
# Rows further apart than this many font sizes are not the same table (nor the caption).
_MAX_ROW_GAP_SIZES = 3.0
_PROSE_WORDS = 7
_RUNNING_WORDS = 4  # a column's line of prose holds at least this many words (most do)
CELL_JOINER = " | "
ROW_JOINER = "\n"


@dataclass(frozen=True)
class _Span:
    left: float
    right: float

    def holds(self, line: Line) -> bool:
        return line.x0 >= self.left - 1 and line.x1 <= self.right + 1


def find_tables(lines: Sequence[Line], gutter: float | None) -> list[Line]:
    """``lines`` with each captioned table's lines replaced by one stand-in line."""
    taken: set[int] = set()
    stand_ins: list[Line] = []
    for caption in lines:
        if not TABLE_CAPTION.match(caption.text) or id(caption) in taken:
            continue
        rows = _table_rows(caption, lines, _span(caption, lines, gutter), taken)
        if rows:
            taken.update(id(line) for row in rows for line in row)
            stand_ins.append(stand_in("table", rows))
    if not stand_ins:
        return list(lines)
    return [line for line in lines if id(line) not in taken] + stand_ins


def stand_in(role: str, rows: tuple[tuple[Line, ...], ...]) -> Line:
    """One line covering ``rows``, standing for them in reading order."""
    members = [line for row in rows for line in row]
    sizes = sorted(line.size for line in members)
    return Line(
        text=" ".join(line.text for line in members),
        x0=min(line.x0 for line in members),
        top=min(line.top for line in members),
        x1=max(line.x1 for line in members),
        bottom=max(line.bottom for line in members),
        size=sizes[len(sizes) // 2],
        bold=False,
        role=role,
        rows=rows,
    )


def _span(caption: Line, lines: Sequence[Line], gutter: float | None) -> _Span:
    """Where the table may lie: the caption's column, or the page's width."""
    left = min(line.x0 for line in lines)
    right = max(line.x1 for line in lines)
    if gutter is None or (caption.x0 < gutter - 2 and caption.x1 > gutter + 2):
        return _Span(left, right)
    return _Span(left, gutter + 2) if caption.x1 <= gutter + 2 else _Span(gutter - 2, right)


def _table_rows(
    caption: Line, lines: Sequence[Line], span: _Span, taken: set[int]
) -> tuple[tuple[Line, ...], ...]:
    pool = [line for line in lines if line is not caption and id(line) not in taken]
    pool = [line for line in pool if span.holds(line)]
    below = sorted((line for line in pool if line.top >= caption.bottom - 1), key=_top)
    above = sorted((line for line in pool if line.bottom <= caption.top + 1), key=_bottom)
    last, below = _skip_caption(caption, below)
    candidates = [_walk(last, below, down=True)]
    candidates.append(_walk(caption, above, down=False)[::-1])
    best = max(
        (rows for rows in candidates if not _two_column_prose(rows)), key=_cell_rows, default=()
    )
    multi = _cell_rows(best)
    if multi < _MIN_ROWS or multi * 2 < len(best):
        return ()
    return best


def _top(line: Line) -> float:
    return line.top


def _bottom(line: Line) -> float:
    return -line.bottom


def _skip_caption(caption: Line, below: list[Line]) -> tuple[Line, list[Line]]:
    """The caption's last line and the lines below it (a caption above its table that
    runs over several lines, or is cut in two by a gap after "Table 1.")."""
    last = caption
    for index, line in enumerate(below):
        close = line.top - last.bottom < 0.75 * caption.size
        beside = line.top < last.bottom - 1
        if not (close or beside) or abs(line.size - caption.size) >= 0.6 or len(line.cells) > 1:
            return last, below[index:]
        last = line
    return last, []


def _walk(caption: Line, ordered: list[Line], *, down: bool) -> tuple[tuple[Line, ...], ...]:
    """Rows of ``ordered`` (nearest the caption first) until the table ends."""
    rows: list[tuple[Line, ...]] = []
    gaps: list[float] = []
    edge = caption.bottom if down else caption.top
    index = 0
    while index < len(ordered):
        row = _row(ordered, index)
        index += len(row)
        near = min(line.top for line in row) if down else max(line.bottom for line in row)
        gap = near - edge if down else edge - near
        if _apart(gap, gaps, row[0].size, _cells(row)) or _ends_table(row):
            break
        if rows:
            gaps.append(gap)
        rows.append(tuple(sorted(row, key=lambda line: line.x0)))
        edge = max(line.bottom for line in row) if down else min(line.top for line in row)
    while rows and _cells(rows[-1]) < 2:
        rows.pop()  # a lone line at the far end is more likely prose than a table row
    return tuple(rows)


def _apart(gap: float, gaps: Sequence[float], size: float, cells: int) -> bool:
    """Whether a row lies too far off to belong: a table's rows are evenly spaced, so a
    running header above it, or a section title below, sits further away."""
    if gap > _MAX_ROW_GAP_SIZES * size:
        return True
    if len(gaps) < 2 or cells >= _MANY_CELLS:
        return False  # a wide gap before a full row parts two sections of one table
    usual = sorted(gaps)[len(gaps) // 2]
    return gap > max(size, _ROW_GAP_SPREAD * usual)


def _row(ordered: list[Line], index: int) -> list[Line]:
    """The lines from ``index`` on that share the first one's printed row."""
    first = ordered[index]
    middle = (first.top + first.bottom) / 2
    row = [first]
    for line in ordered[index + 1 :]:
        if line.top <= middle <= line.bottom or first.top <= (line.top + line.bottom) / 2 <= (
            first.bottom
        ):
            row.append(line)
        else:
            break
    return row


def _ends_table(row: Sequence[Line]) -> bool:
    text = " ".join(line.text for line in row)
    if _NUMBERED_HEADING.match(text):
        return True
    if len(row) > 1 or row[0].cells:
        return False
    if _SECTION_TITLE.match(text) or TABLE_CAPTION.match(text) or row[0].role:
        return True
    return len(_WORD.findall(text)) >= _PROSE_WORDS


def _two_column_prose(rows: Sequence[Sequence[Line]]) -> bool:
    """Whether most "rows" are a line of running text from each column: a caption across
    the gutter has two-column prose beside it, and its lines pair up like two cells."""
    pairs = sum(len(row) == 2 and all(_is_running_text(line) for line in row) for row in rows)
    return pairs * 2 > len(rows)


def _is_running_text(line: Line) -> bool:
    return not line.cells and len(_WORD.findall(line.text)) >= _RUNNING_WORDS


def _cells(row: Sequence[Line]) -> int:
    return sum(max(1, len(line.cells)) for line in row)


def _cell_rows(rows: Sequence[Sequence[Line]]) -> int:
    return sum(_cells(row) >= 2 for row in rows)


def table_text(rows: Sequence[Sequence[Line]]) -> BlockText:
    """Rows joined by a newline, cells by " | "; one LineBox per row."""
    parts: list[str] = []
    boxes: list[LineBox] = []
    length = 0
    for row in rows:
        cells = [clean_line(cell) for line in row for cell in _cell_texts(line)]
        text = CELL_JOINER.join(cell for cell in cells if cell)
        if not text:
            continue
        if parts:
            parts.append(ROW_JOINER)
            length += len(ROW_JOINER)
        parts.append(text)
        box = LineBox(
            min(line.x0 for line in row),
            min(line.top for line in row),
            max(line.x1 for line in row),
            max(line.bottom for line in row),
            length,
            length + len(text),
        )
        boxes.append(box)
        length += len(text)
    return BlockText("".join(parts), tuple(boxes))


def _cell_texts(line: Line) -> list[str]:
    return [cell.text for cell in line.cells] if line.cells else [line.text]
