"""One PDF page's characters -> printed lines, through pdfium's raw text API.

Per-character ctypes calls dominate the cost, so each character costs exactly one call
(its loose box); font size and weight are sampled a few times per line, not per char.
pdfium's own line breaks are ignored: it joins hyphenated lines and splits superscripts
off, so lines are cut by geometry alone (a vertical jump, a step back, or a wide gap).
"""

from __future__ import annotations

import ctypes
from array import array
from dataclasses import dataclass

import pypdfium2.raw as pdfium_c

# A forward gap wider than this many line heights separates two columns or table cells.
_GAP_LINE_HEIGHTS = 2.0
# A step back further than this many line heights starts a new line (overprints are short).
_BACK_LINE_HEIGHTS = 1.5
_BOLD_WEIGHT = 600
# A line's loose box is about 0.9 font sizes tall; far less means pdfium's size is unscaled.
_HEIGHT_PER_SIZE = 0.9
_MIN_HEIGHT_PER_SIZE = 0.55
_BOLD_NAMES = ("bold", "medi", "black", "heavy", "semibold", "demi")
_SPACES = frozenset((9, 10, 13, 32, 0xA0))


@dataclass(frozen=True)
class Line:
    """One printed line: raw text and its box in points, origin at the page's top-left."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    run_in: bool = False  # a bold head cut from the start of its printed line

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class PageFrame:
    """Where page space sits: the crop box, to move points to a top-left origin."""

    left: float
    top: float
    width: float
    height: float


class _LineBuilder:
    """Accumulates the characters of the current line (PDF coordinates, y up)."""

    def __init__(self) -> None:
        self.units: list[int] = []
        self.indices: list[int] = []  # pdfium index of each placed character
        self.offsets: list[int] = []  # where each placed character sits in ``units``
        self.boxes: list[tuple[float, float, float, float]] = []  # left, bottom, right, top

    def empty(self) -> bool:
        return not self.indices

    def starts_new_line(self, left: float, bottom: float, right: float, top: float) -> bool:
        if not self.boxes:
            return False
        l0, b0, r0, t0 = self.boxes[-1]
        height = max(t0 - b0, top - bottom, 1.0)
        same_row = b0 <= (bottom + top) / 2 <= t0 or bottom <= (b0 + t0) / 2 <= top
        if not same_row:
            return True
        return left < l0 - _BACK_LINE_HEIGHTS * height or left - r0 > _GAP_LINE_HEIGHTS * height

    def add(self, unit: int, index: int, box: tuple[float, float, float, float]) -> None:
        self.offsets.append(len(self.units))
        self.units.append(unit)
        self.indices.append(index)
        self.boxes.append(box)

    def split(self, cut: int) -> tuple[_LineBuilder, _LineBuilder]:
        """Two builders: placed characters before ``cut`` and from ``cut`` on."""
        head, tail = _LineBuilder(), _LineBuilder()
        at = self.offsets[cut]
        head.units, tail.units = self.units[:at], self.units[at:]
        head.indices, tail.indices = self.indices[:cut], self.indices[cut:]
        head.offsets = self.offsets[:cut]
        tail.offsets = [offset - at for offset in self.offsets[cut:]]
        head.boxes, tail.boxes = self.boxes[:cut], self.boxes[cut:]
        return head, tail


def page_lines(textpage: ctypes.c_void_p, frame: PageFrame) -> tuple[Line, ...]:
    """The printed lines of one pdfium text page, in content-stream order."""
    count = pdfium_c.FPDFText_CountChars(textpage)
    if count <= 0:
        return ()
    units = _page_units(textpage, count)
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    get_box = pdfium_c.FPDFText_GetLooseCharBox
    lines: list[Line] = []
    builder = _LineBuilder()
    for index, unit in enumerate(units):
        if unit in _SPACES:
            if not builder.empty():
                builder.units.append(32)
            continue
        get_box(textpage, index, rect_ref)
        left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
        if right <= left and top <= bottom:
            # No extent (pdfium could not place it): keep the text, not the position.
            if not builder.empty():
                builder.units.append(unit)
            continue
        if builder.starts_new_line(left, bottom, right, top):
            lines.extend(_finish(builder, textpage, frame))
            builder = _LineBuilder()
        builder.add(unit, index, (left, bottom, right, top))
    if not builder.empty():
        lines.extend(_finish(builder, textpage, frame))
    return tuple(lines)


def _page_units(textpage: ctypes.c_void_p, count: int) -> list[int]:
    """One UTF-16 code unit per character index.

    The page text comes in one call; when its length does not match the character count
    (a glyph expanded to several characters, say) it cannot be indexed by character,
    and each character's code is asked for instead.
    """
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(textpage, 0, count, buffer)
    if written == count + 1:
        return buffer[:count]
    get_unicode = pdfium_c.FPDFText_GetUnicode
    codes = (get_unicode(textpage, index) for index in range(count))
    return [code if code <= 0xFFFF else 0xFFFD for code in codes]


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
    if len(indices) < 4 or not _char_bold(textpage, indices[0]):
        return 0
    if _char_bold(textpage, indices[-1]):
        return 0
    low, high = 0, len(indices) - 1  # bold at low, regular at high
    while high - low > 1:
        middle = (low + high) // 2
        if _char_bold(textpage, indices[middle]):
            low = middle
        else:
            high = middle
    # Only a whole-word prefix: the cut falls just after a space.
    units = builder.units
    return high if units[builder.offsets[high] - 1] == 32 else 0


def _line(
    builder: _LineBuilder, textpage: ctypes.c_void_p, frame: PageFrame, bold: bool | None
) -> Line:
    lefts, bottoms, rights, tops = zip(*builder.boxes, strict=True)
    text = array("H", builder.units).tobytes().decode("utf-16-le", "replace").rstrip(" ")
    x0 = _clamp(min(lefts) - frame.left, frame.width)
    x1 = _clamp(max(rights) - frame.left, frame.width)
    y0 = _clamp(frame.top - max(tops), frame.height)
    y1 = _clamp(frame.top - min(bottoms), frame.height)
    samples = _samples(builder.indices)
    size = _font_size(textpage, samples, y1 - y0)
    if bold is None:
        bold = all(_char_bold(textpage, index) for index in samples)
    return Line(text, x0, y0, x1, y1, size, bold, run_in=bold is True)


def _clamp(value: float, limit: float) -> float:
    return min(max(value, 0.0), limit)


def _samples(indices: list[int]) -> tuple[int, ...]:
    if len(indices) <= 3:
        return tuple(indices)
    return (indices[0], indices[len(indices) // 2], indices[-1])


def _font_size(textpage: ctypes.c_void_p, samples: tuple[int, ...], height: float) -> float:
    sizes = sorted(pdfium_c.FPDFText_GetFontSize(textpage, i) for i in samples)
    size = sizes[len(sizes) // 2]
    # pdfium's size ignores scaling by the page (a shrunk figure, fonts of size 1 scaled
    # by the text matrix): when the glyphs are far smaller, their height is the size.
    return size if height >= _MIN_HEIGHT_PER_SIZE * size else height / _HEIGHT_PER_SIZE


def _is_bold(textpage: ctypes.c_void_p, samples: tuple[int, ...]) -> bool:
    votes = sum(_char_bold(textpage, i) for i in samples)
    return votes * 2 > len(samples)


def _char_bold(textpage: ctypes.c_void_p, index: int) -> bool:
    weight = pdfium_c.FPDFText_GetFontWeight(textpage, index)
    if weight >= _BOLD_WEIGHT:
        return True
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage, index, name, len(name), ctypes.byref(flags))
    lowered = name.value.decode("latin-1").lower()
    return any(marker in lowered for marker in _BOLD_NAMES)
