"""One PDF page's characters -> printed lines, through pdfium's raw text API.

Per-character ctypes calls dominate the cost, so each character costs exactly one call
(its loose box); font size and weight are sampled a few times per line, not per char.
pdfium's own line breaks are ignored: it joins hyphenated lines and splits superscripts
off, so lines are cut by geometry alone (a vertical jump, a step back, or a wide gap).
"""

from __future__ import annotations

import ctypes
import itertools
import re

import pypdfium2.raw as pdfium_c

from askalong.parse.pdf.char_calls import LOOSE_BOX, char_bold, decoded, font_size, page_text
from askalong.parse.pdf.inline_math import HEADS, Piece, rejoined, tidied
from askalong.parse.pdf.markers import Mark, candidates, raised, rewrite
from askalong.parse.pdf.printed import Cell, Line, PageFrame
from askalong.text.scripts import HAN

# A forward gap wider than this many line heights separates two columns or table cells.
_GAP_LINE_HEIGHTS = 2.0
# A step back further than this many line heights starts a new line (overprints are short).
_BACK_LINE_HEIGHTS = 1.5
# A run whose last character's bottom is this share of the taller box off its first's is
# read one character at a time, so that its scripts can be told apart.
_OFF_BASELINE_SHARE = 0.15
_OFF_TOP_SHARE = 0.25
_EVEN_POINTS = 0.5
_DIGIT_AFTER_LETTER = re.compile(r"[^\W\d_][0-9]")
_CLOSING_MARKS = frozenset(",.;:)]}")
_ARROWHEAD = re.compile(f"[{HEADS}]")
# A gap between words wider than this many font sizes separates table cells.
_CELL_GAP_SIZES = 0.8


Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF space (y up)
# Han, kana, CJK and full-width punctuation: written without spaces between them (not
# Hangul, which spaces its words).
_UNSPACED = re.compile(f"[{HAN}\u3000-\u303f\u3040-\u30ff\uff00-\uffef]")
# A word, or a run of CJK text: characters pdfium did not separate by white space. A
# hyphen mark ends a run, as the word goes on on the next line.
_RUN = re.compile(r"[^ \t\r\n\xa0\ufffe\x02]+[\ufffe\x02]?|[\ufffe\x02]")


class _LineBuilder:
    """Accumulates the pieces (words, or single characters) of the current line."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.indices: list[int] = []  # pdfium index of the first character of each piece
        self.offsets: list[int] = []  # where each piece starts in the line text
        self.boxes: list[Box] = []
        self.glued: list[bool] = []  # split from the piece before by a change of baseline
        # What the next piece must share a row with: the last piece's box, or the whole
        # of the last run when its pieces changed baseline (a script ends "X⁻¹").
        self.row: Box = (0.0, 0.0, 0.0, 0.0)

    def empty(self) -> bool:
        return not self.indices

    def add(self, piece: str, index: int, box: Box, spaced: bool, glued: bool = False) -> None:
        # extend() written out: this runs once per word.
        parts = self.parts
        if spaced and parts and not _unspaced(parts[-1], piece):
            parts.append(" ")
            self.length += 1
        self.offsets.append(self.length)
        parts.append(piece)
        self.length += len(piece)
        self.indices.append(index)
        self.boxes.append(box)
        self.glued.append(glued)
        self.row = box

    def extend(self, piece: str, spaced: bool) -> None:
        """Add text; ``spaced`` puts a space before it."""
        if spaced and self.parts and not _unspaced(self.parts[-1], piece):
            self.parts.append(" ")
            self.length += 1
        self.parts.append(piece)
        self.length += len(piece)

    def pieces(self) -> list[Piece]:
        """The line's pieces as added (unplaced text stays with the piece before it)."""
        text, offsets = "".join(self.parts), self.offsets
        ends = [*offsets[1:], len(text)]
        spans = zip(offsets, ends, self.indices, self.boxes, self.glued, strict=True)
        return [
            Piece(
                text[start:end].rstrip(" "), index, box, start > 0 and text[start - 1] == " ", glued
            )
            for start, end, index, box, glued in spans
        ]

    def split(self, cut: int) -> tuple[_LineBuilder, _LineBuilder]:
        """Two builders: the pieces before ``cut`` and from ``cut`` on."""
        head, tail = _LineBuilder(), _LineBuilder()
        text, at = "".join(self.parts), self.offsets[cut]
        head.parts, tail.parts = [text[:at]], [text[at:]]
        head.length, tail.length = at, len(text) - at
        head.indices, tail.indices = self.indices[:cut], self.indices[cut:]
        head.offsets = self.offsets[:cut]
        tail.offsets = [offset - at for offset in self.offsets[cut:]]
        head.boxes, tail.boxes = self.boxes[:cut], self.boxes[cut:]
        head.glued, tail.glued = self.glued[:cut], self.glued[cut:]
        return head, tail


def _unspaced(before: str, after: str) -> bool:
    """Whether two pieces of Chinese or Japanese meet: a gap a justified line put between
    their characters is no space in the text (``提示對 於 使 用`` read as ``提示對於使用``)."""
    return bool(before and after and _UNSPACED.match(before[-1]) and _UNSPACED.match(after[0]))


def _same_line(prev: Box, box: Box) -> bool:
    """Whether ``box`` continues the printed line that ``prev`` ends."""
    l0, b0, r0, t0 = prev
    left, bottom, _, top = box
    height = max(t0 - b0, top - bottom, 1.0)
    if not l0 - _BACK_LINE_HEIGHTS * height <= left <= r0 + _GAP_LINE_HEIGHTS * height:
        return False
    # _same_row, written out: this runs once per word.
    return b0 <= (bottom + top) / 2 <= t0 or bottom <= (b0 + t0) / 2 <= top


def _same_row(one: Box, two: Box) -> bool:
    """Each box's vertical middle lies within the other's extent (either way)."""
    return one[1] <= (two[1] + two[3]) / 2 <= one[3] or two[1] <= (one[1] + one[3]) / 2 <= two[3]


def _off_baseline(first: Box, other: Box) -> bool:
    """Whether ``other`` sits off the baseline of ``first``: its loose box's bottom
    moved, or its top moved further than a smaller size would (a subscript's does)."""
    height = max(first[3] - first[1], other[3] - other[1])
    if abs(other[1] - first[1]) > _OFF_BASELINE_SHARE * height:
        return True
    return abs(other[3] - first[3]) > _OFF_TOP_SHARE * height


def _mark_in(marks: list[Mark], at: int, start: int, end: int) -> Mark | None:
    """The first footnote marker candidate in ``start:end`` (``at``: the next one)."""
    while at < len(marks) and marks[at].start < start:
        at += 1
    return marks[at] if at < len(marks) and marks[at].start < end else None


def _joined(one: Box, two: Box) -> Box:
    return (min(one[0], two[0]), min(one[1], two[1]), max(one[2], two[2]), max(one[3], two[3]))


def _placed(box: Box) -> bool:
    return box[2] > box[0] or box[3] > box[1]


class _PageReader:
    """Walks one text page run by run, asking pdfium for as few boxes as it can."""

    def __init__(self, textpage: ctypes.c_void_p, frame: PageFrame) -> None:
        self.textpage = textpage
        self.frame = frame
        self.rect = (ctypes.c_float * 4)()  # an FS_RECTF: left, top, right, bottom
        self.lines: list[Line] = []
        self.builder = _LineBuilder()

    def box(self, index: int) -> Box:
        rect = self.rect
        LOOSE_BOX(self.textpage, index, rect)
        left, top, right, bottom = rect
        return (left, bottom, right, top)

    def read(self, text: str) -> tuple[Line, ...]:
        previous_end = 0
        box, place = self.box, self.place
        marks, next_mark = candidates(text), 0
        for match in _RUN.finditer(text):
            start, end = match.span()
            spaced = start > previous_end
            previous_end = end
            first = box(start)
            if end - start > 1:
                last = box(end - 1)
                if not (_placed(first) and _placed(last) and _same_row(first, last)):
                    self.chars(text, start, end, spaced)
                    continue
                if last[0] < first[0]:
                    self.chars(text, start, end, spaced)
                    continue
                if self.scripted(text, start, end, first, last) and not self.footnoted(
                    _mark_in(marks, next_mark, start, end)
                ):
                    self.baselines(text, start, end, spaced)
                    continue
                first = (
                    first[0],
                    min(first[1], last[1]),
                    max(first[2], last[2]),
                    max(first[3], last[3]),
                )
            piece = text[start:end]
            while next_mark < len(marks) and marks[next_mark].start < end:
                if marks[next_mark].start >= start:
                    piece = self.marked(piece, start, marks[next_mark])
                next_mark += 1
            place(piece, start, first, spaced)
        self.flush()
        return tuple(self.lines)

    def scripted(self, text: str, start: int, end: int, first: Box, last: Box) -> bool:
        """Whether the run ``start:end`` leaves its first character's baseline: at its
        end ("P2" printed P², "Q," printed Q and a comma), at a digit after a letter
        ("H2O" printed H₂O), or just before closing punctuation ("tm," printed t with m
        lowered)."""
        if _off_baseline(first, last):
            return True
        digit = _DIGIT_AFTER_LETTER.search(text, start, end)
        if digit is not None:
            return _off_baseline(first, self.box(digit.end() - 1))
        before = end - 2  # the letter a closing mark follows
        if before > start and text[end - 1] in _CLOSING_MARKS and text[before].isalpha():
            return _off_baseline(first, self.box(before))
        return False

    def footnoted(self, mark: Mark | None) -> bool:
        """Whether ``mark`` is a raised footnote marker ("SCIDOCS3"), which ``marked``
        writes; a digit set low ("xi2" printed x with i2 lowered) is a subscript."""
        return mark is not None and raised(self.box(mark.start), self.box(mark.neighbour))

    def marked(self, piece: str, start: int, mark: Mark) -> str:
        """``piece`` with ``mark`` as superscript digits when it is printed raised."""
        neighbour = self.box(mark.neighbour)
        if raised(self.box(mark.start), neighbour):
            return rewrite(piece, start, mark)
        return piece

    def chars(self, text: str, start: int, end: int, spaced: bool) -> None:
        """A run that wraps or holds unplaced characters, one character at a time."""
        for index in range(start, end):
            self.place(text[index], index, self.box(index), spaced and index == start)

    def baselines(self, text: str, start: int, end: int, spaced: bool) -> None:
        """A run on one row that changes baseline, one piece per baseline ("H", "2",
        "O."), so that its scripts can be told apart; placed on a line as a whole."""
        starts: list[int] = []  # where each piece starts, its first box and its box
        firsts: list[Box] = []
        boxes: list[Box] = []
        for index in range(start, end):
            box = self.box(index)
            if not _placed(box):
                continue
            if firsts and not _off_baseline(firsts[-1], box):
                boxes[-1] = _joined(boxes[-1], box)
                continue
            starts.append(index)
            firsts.append(box)
            boxes.append(box)
        if not starts:
            return
        row = boxes[0]
        for box in boxes[1:]:
            row = _joined(row, box)
        if not self.builder.empty() and not _same_line(self.builder.row, row):
            self.flush()  # the run as a whole continues the line, or starts the next
        stops = [*starts[1:], end]
        self.builder.add(text[start : stops[0]], starts[0], boxes[0], spaced)
        for index, stop, box in zip(starts[1:], stops[1:], boxes[1:], strict=True):
            self.builder.add(text[index:stop], index, box, False, glued=True)
        self.builder.row = row

    def place(self, piece: str, index: int, box: Box, spaced: bool) -> None:
        if not _placed(box):
            # No extent (pdfium could not place it): keep the text, not the position.
            if not self.builder.empty():
                self.builder.extend(piece, spaced)
            return
        if not self.builder.empty() and not _same_line(self.builder.row, box):
            self.flush()
        self.builder.add(piece, index, box, spaced)

    def flush(self) -> None:
        if not self.builder.empty():
            builder = _with_inline_math(self.builder)
            self.lines.extend(_finish(builder, self.textpage, self.frame))
        self.builder = _LineBuilder()


def _with_inline_math(builder: _LineBuilder) -> _LineBuilder:
    """``builder``'s line with its scripts, arrows and arrow labels read as printed."""
    if not _may_hold_math(builder):
        return builder
    pieces = builder.pieces()
    tidy = tidied(pieces)
    if tidy == pieces and not any(builder.glued):
        return builder
    out = _LineBuilder()
    for piece in rejoined(tidy):
        out.add(piece.text, piece.index, piece.box, piece.spaced)
    return out


def _may_hold_math(builder: _LineBuilder) -> bool:
    """A cheap look first (most lines hold no mathematics): a run cut where its baseline
    moved, an arrowhead, or two pieces in a row on different baselines."""
    if any(builder.glued) or _ARROWHEAD.search("".join(builder.parts)):
        return True
    boxes = builder.boxes
    bottoms = [box[1] for box in boxes]
    if max(bottoms) - min(bottoms) < _EVEN_POINTS:  # loose boxes of one font share bottoms
        return False
    return any(_off_baseline(one, two) for one, two in itertools.pairwise(boxes))


def page_lines(textpage: ctypes.c_void_p, frame: PageFrame) -> tuple[Line, ...]:
    """The printed lines of one pdfium text page, in content-stream order."""
    count = pdfium_c.FPDFText_CountChars(textpage)
    if count <= 0:
        return ()
    return _PageReader(textpage, frame).read(page_text(textpage, count))


def _finish(builder: _LineBuilder, textpage: ctypes.c_void_p, frame: PageFrame) -> list[Line]:
    """The line, or two when it opens with a run-in bold heading ("Data Our data ...")."""
    cut = _run_in_cut(builder, textpage)
    if cut:
        head, tail = builder.split(cut)
        return [_line(head, textpage, frame, True), _line(tail, textpage, frame, False)]
    return [_line(builder, textpage, frame, None)]


def _run_in_cut(builder: _LineBuilder, textpage: ctypes.c_void_p) -> int:
    """Where a bold start of the line gives way to regular text, or 0."""
    indices = builder.indices
    if len(indices) < 4 or not char_bold(textpage, indices[0]):
        return 0
    if char_bold(textpage, indices[-1]):
        return 0
    low, high = 0, len(indices) - 1  # bold at low, regular at high
    while high - low > 1:
        middle = (low + high) // 2
        if char_bold(textpage, indices[middle]):
            low = middle
        else:
            high = middle
    # Only a whole-word prefix: the cut falls just after a space.
    offset = builder.offsets[high]
    return high if "".join(builder.parts)[offset - 1 : offset] == " " else 0


def _line(
    builder: _LineBuilder, textpage: ctypes.c_void_p, frame: PageFrame, bold: bool | None
) -> Line:
    lefts, bottoms, rights, tops = zip(*builder.boxes, strict=True)
    text = decoded("".join(builder.parts).rstrip(" "))
    x0 = _clamp(min(lefts) - frame.left, frame.width)
    x1 = _clamp(max(rights) - frame.left, frame.width)
    y0 = _clamp(frame.top - max(tops), frame.height)
    y1 = _clamp(frame.top - min(bottoms), frame.height)
    samples = _samples(builder.indices)
    size = font_size(textpage, samples, y1 - y0, builder.boxes)
    run_in = bold is True  # only a head cut off by _finish is a run-in heading
    if bold is None:
        bold = all(char_bold(textpage, index) for index in samples)
    cells = _cells(builder, frame.left, size)
    return Line(text, x0, y0, x1, y1, size, bold, run_in=run_in, cells=cells)


def _cells(builder: _LineBuilder, left: float, size: float) -> tuple[Cell, ...]:
    """The line cut at gaps wider than a normal word space, or () when it has none."""
    boxes, limit = builder.boxes, _CELL_GAP_SIZES * size
    cuts = [i for i in range(1, len(boxes)) if boxes[i][0] - boxes[i - 1][2] > limit]
    if not cuts:
        return ()
    text, offsets = "".join(builder.parts), builder.offsets
    starts, ends = [0, *cuts], [*cuts, len(boxes)]
    return tuple(
        Cell(
            decoded(text[offsets[a] : offsets[b] if b < len(offsets) else len(text)]).strip(),
            boxes[a][0] - left,
            max(box[2] for box in boxes[a:b]) - left,
        )
        for a, b in zip(starts, ends, strict=True)
    )


def _clamp(value: float, limit: float) -> float:
    return min(max(value, 0.0), limit)


def _samples(indices: list[int]) -> tuple[int, ...]:
    if len(indices) <= 3:
        return tuple(indices)
    return (indices[0], indices[len(indices) // 2], indices[-1])
