"""Printed lines of one page -> groups of lines (future blocks) in reading order.

Columns are found from where lines sit relative to the middle of the text area: a page
is two-column when enough text lies wholly left and wholly right of the gutter. Lines that
cross the gutter (titles, abstracts, wide figures, page numbers) cut the page into bands;
each band is read left column top to bottom, then right column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from askalong.parse.navigation import TOC_ENTRY
from askalong.parse.pdf.formulas import mark_formulas
from askalong.parse.pdf.printed import Line
from askalong.parse.pdf.tables import find_tables, stand_in

# Each side of a two-column page holds at least this share of the page's characters.
_MIN_COLUMN_SHARE = 0.2
_MIN_COLUMN_LINES = 4
# A vertical gap over this many font sizes separates two blocks.
_BLOCK_GAP_SIZES = 0.75
_BODY_LINE_CHARS = 20  # a line at least this long is body text, not a stamp or label
_STAMP_CHARS = 3
CAPTION_START = re.compile(
    r"^\s*(?:(?:Figure|Fig\.|Table|Algorithm|Listing|FIGURE|FIG\.|TABLE)\s*[0-9IVX]+[A-Za-z]?\s*[:.|]"
    r"|(?:图|表)\s*[0-9０-９]+)"
)
NUMBERED_TITLE = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|[A-Z]\.|[IVX]{1,5}\.|第[一二三四五六七八九十百\d]+[章节部分篇]"
    r"|[一二三四五六七八九十]+[、.])\s*\S"
)
# "1. Introduction", "2.3 Model": a section number with a dot (an address is "51 avenue").
_SECTION_NUMBER = re.compile(
    r"^\d{1,2}(?:\.\d{1,2})*\.\s*[^\d\s]|^\d{1,2}(?:\.\d{1,2})+\s*[^\d\s.]"
)
# A bold label opening a paragraph set in the regular face.
_LABEL = re.compile(r"^\s*(?:摘\s*要|关键词|Abstract|Key\s*words|Keywords)\s*[:：]", re.I)
_SENTENCE_END = (".", "!", "?", ":", "。", "！", "？", "：", "．")
# A Chinese line that stops at the right edge on an ideograph or a mid-sentence mark
# runs on into the next line, however wide the line spacing or hanging the indent.
_CJK_RUNS_ON = re.compile(r"[\u4e00-\u9fff，、（《“‘]$")
_LATIN_END = re.compile(r"[A-Za-z0-9_)\]]$")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_WRAP_GAP_SIZES = 2.0
_CLOSE_SIZES = 1.5  # points: a line in another font within a paragraph
_PAGE_NUMBER_END = re.compile(r"(?:^|\s)[\dvixlc]{1,4}\s*$", re.I)  # "… 系统 5", "Preface v"
_HANG_SIZES = 4.0


def reading_order(lines: Sequence[Line]) -> tuple[tuple[Line, ...], ...]:
    """Group one page's lines into blocks, in reading order."""
    if not lines:
        return ()
    gutter = _gutter(lines)
    lines = find_tables(lines, gutter)
    columns = _columns(lines, gutter) if gutter is not None else _with_margin(lines)
    blocks: list[tuple[Line, ...]] = []
    for column in columns:
        blocks.extend(_split_blocks(column))
    return tuple(blocks)


def _with_margin(lines: Sequence[Line]) -> list[list[Line]]:
    """One column of text, and apart from it what stands in the right margin beside it
    (an arXiv stamp, margin notes), which would otherwise cut every paragraph."""
    long = [line for line in lines if len(line.text) >= _BODY_LINE_CHARS]
    if not long:
        return [_sorted(lines)]
    right = _edge((line.x1 for line in long), high=True)
    top, bottom = min(line.top for line in long), max(line.bottom for line in long)
    # Beside the text, not above or below it (a page number in a corner stays put).
    margin = [
        line
        for line in lines
        if line.x0 >= right and line.top >= top - 1 and line.bottom <= bottom + 1
    ]
    body = [line for line in lines if line not in margin]
    if not body or not margin:
        return [_sorted(lines)]
    # A stamp set letter by letter down the margin is page furniture, kept as one piece.
    stamp = [line for line in margin if len(line.text.strip()) <= _STAMP_CHARS]
    notes = [line for line in margin if len(line.text.strip()) > _STAMP_CHARS]
    runs = [_sorted(body), _sorted(notes)]
    if stamp:
        runs.append([stand_in("margin", tuple((line,) for line in _sorted(stamp)))])
    return [run for run in runs if run]


def _sorted(lines: Sequence[Line]) -> list[Line]:
    return sorted(lines, key=lambda line: (round(line.top), line.x0))


def _gutter(lines: Sequence[Line]) -> float | None:
    """The x of the gutter when the page has two columns of text, else None."""
    left_edge = min(line.x0 for line in lines)
    right_edge = max(line.x1 for line in lines)
    middle = (left_edge + right_edge) / 2
    total = sum(len(line.text) for line in lines) or 1
    left = [line for line in lines if line.x1 <= middle + 2]
    right = [line for line in lines if line.x0 >= middle - 2]
    if min(len(left), len(right)) < _MIN_COLUMN_LINES:
        return None
    shares = (sum(len(line.text) for line in side) / total for side in (left, right))
    return middle if min(shares) >= _MIN_COLUMN_SHARE else None


def _columns(lines: Sequence[Line], gutter: float) -> list[list[Line]]:
    """Bands cut by gutter-crossing lines; each band gives its left, then right column."""
    runs: list[list[Line]] = []
    left: list[Line] = []
    right: list[Line] = []
    wide: list[Line] = []
    for line in _sorted(lines):
        crosses = line.x0 < gutter - 2 and line.x1 > gutter + 2
        if crosses:
            runs.extend(side for side in (left, right) if side)
            left, right = [], []
            wide.append(line)
            continue
        if wide:
            runs.append(wide)
            wide = []
        (left if line.x1 <= gutter + 2 else right).append(line)
    runs.extend(side for side in (left, right, wide) if side)
    return runs


def _split_blocks(column: Sequence[Line]) -> list[tuple[Line, ...]]:
    left_edge = _edge(line.x0 for line in column)
    right_edge = _edge((line.x1 for line in column), high=True)
    column = mark_formulas(column, left_edge, right_edge)
    blocks: list[tuple[Line, ...]] = []
    current: list[Line] = []
    for line in column:
        if current and line.run_in and _runs_into(current[-1], line, right_edge):
            line = replace(line, run_in=False)  # a bold word going on with the sentence
        if current and _breaks(current[-1], line, left_edge, right_edge):
            blocks.append(tuple(current))
            current = []
        current.append(line)
    if current:
        blocks.append(tuple(current))
    return blocks


def _edge(values: Iterable[float], *, high: bool = False) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    # A robust edge: ignore the odd outlier line (a wide formula, a hanging label).
    index = len(ordered) * 9 // 10 if high else len(ordered) // 10
    return float(ordered[index])


def _breaks(prev: Line, line: Line, left_edge: float, right_edge: float) -> bool:
    """True when ``line`` starts a new block after ``prev`` in the same column."""
    size = max(prev.size, 1.0)
    if prev.role or line.role:
        return True  # a table or formula stands alone
    label = prev.bold and bool(_LABEL.match(prev.text))  # "摘要：", "Abstract:In"
    if prev.run_in:
        # A run-in heading stands alone; "Papers." or "Figure 1:" leads into its text.
        return not (label or prev.text.rstrip().endswith((".", ":", "：", "。")))
    # A full line opening with a bold label runs on in the regular face.
    runs_on = label and prev.x1 > right_edge - 3 * size
    font_change = abs(prev.size - line.size) > 0.6 or (prev.bold != line.bold and not runs_on)
    if line.run_in or (font_change and not _runs_into(prev, line, right_edge)):
        return True
    gap = line.top - prev.bottom
    if _wraps(prev, line, left_edge, right_edge):
        return False
    if gap > _BLOCK_GAP_SIZES * size or line.bottom < prev.top:
        return True
    if line.top < prev.bottom - 0.5 * size and line.x0 > prev.x1:
        return False  # further along the same printed row: "TABLE I.   SIMULATION ..."
    if CAPTION_START.match(line.text):
        return True
    indented = 0.6 * size < line.x0 - left_edge < 4 * size
    prev_full = prev.x0 - left_edge < 0.6 * size
    if indented and prev_full and prev.x1 > right_edge - 2 * size:
        return True
    short = prev.x1 < right_edge - 3 * size
    if short and _SECTION_NUMBER.match(line.text) and line.x1 < right_edge - 3 * size:
        return True  # "1. INTRODUCTION" then "1.1 Cluster computing"
    return short and prev.text.rstrip().endswith(_SENTENCE_END)


def _runs_into(prev: Line, line: Line, right_edge: float) -> bool:
    """A font change inside a paragraph: ``prev`` fills its line to the right edge and
    stops mid-sentence, ``line`` follows right below in a size close to it (a bold term,
    a word in code type, at a line's start or end, never ends a paragraph)."""
    size = max(prev.size, 1.0)
    if prev.role or abs(prev.size - line.size) > _CLOSE_SIZES or _listed(prev, line):
        return False
    if line.x0 > prev.x1 and line.top < prev.bottom - 0.5 * size:
        return True  # further along the same printed row
    text = prev.text.rstrip()
    full = prev.x1 > right_edge - 2 * size and not text.endswith(_SENTENCE_END)
    return full and 0 <= line.top - prev.bottom <= _BLOCK_GAP_SIZES * size


def _listed(prev: Line, line: Line) -> bool:
    """Contents entries: a line ending in a page number, or one with leader dots, reaches
    the right edge without finishing a sentence, and the next entry starts below it."""
    return bool(_PAGE_NUMBER_END.search(prev.text) or TOC_ENTRY.search(line.text))


def _wraps(prev: Line, line: Line, left_edge: float, right_edge: float) -> bool:
    """A Chinese sentence wrapped at the column's right edge onto the line below:
    "…这样的处理方" then "式让写的同学…" under a hanging indent."""
    size = max(prev.size, 1.0)
    if prev.x1 < right_edge - 2 * size or not _runs_on(prev.text.rstrip()):
        return False
    below = 0 <= line.top - prev.bottom <= _WRAP_GAP_SIZES * size
    under = left_edge - size <= line.x0 <= max(prev.x0, left_edge) + _HANG_SIZES * size
    return below and under and bool(line.text.strip())


def _runs_on(text: str) -> bool:
    """A Chinese line ending mid-sentence: on a Han character, a comma, or a Latin word
    inside Chinese text ("…一定要注意当 value")."""
    if TOC_ENTRY.search(text):
        return False
    if _CJK_RUNS_ON.search(text):
        return True
    return bool(_LATIN_END.search(text)) and bool(_HAN.search(text))
