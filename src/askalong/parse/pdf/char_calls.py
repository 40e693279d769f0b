"""What pdfium says of a PDF page's characters: the page text (one Python character per
pdfium index), the calls bound once without ctypes' argument conversion, and a line's font
size and weight from a few samples."""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2.raw as pdfium_c

from askalong.parse.pdf.markers import Box
from askalong.parse.pdf.tex_codes import with_t1_codes

_BOLD_WEIGHT = 600
# A line's loose box is about 0.9 font sizes tall; far less means pdfium's size is unscaled.
_HEIGHT_PER_SIZE = 0.9
_MIN_HEIGHT_PER_SIZE = 0.55
_TINY_SIZE = 3.0  # points: no printed text is this small; pdfium's unscaled size is
_BOLD_NAMES = ("bold", "medi", "black", "heavy", "semibold", "demi")


def untyped(function: Any, restype: Any) -> Any:
    """``function`` without ctypes' per-call argument conversion, which costs twice the
    call itself; every argument passed to it must already be an int or a ctypes object."""
    address = ctypes.cast(function, ctypes.c_void_p).value or 0
    return ctypes.CFUNCTYPE(restype)(address)


# Called once or twice per word: the typed bindings would triple the page's cost.
LOOSE_BOX = untyped(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_int)
_FONT_SIZE = untyped(pdfium_c.FPDFText_GetFontSize, ctypes.c_double)
_FONT_WEIGHT = untyped(pdfium_c.FPDFText_GetFontWeight, ctypes.c_int)
_FONT_INFO = untyped(pdfium_c.FPDFText_GetFontInfo, ctypes.c_ulong)


def font_size(
    textpage: ctypes.c_void_p, samples: tuple[int, ...], height: float, boxes: list[Box]
) -> float:
    sizes = sorted(_FONT_SIZE(textpage, i) for i in samples)
    size = sizes[len(sizes) // 2]
    # pdfium's size ignores scaling by the page (a shrunk figure, fonts of size 1 scaled
    # by the text matrix): when the glyphs are far smaller, their height is the size.
    if height < _MIN_HEIGHT_PER_SIZE * size:
        return height / _HEIGHT_PER_SIZE
    if size < _TINY_SIZE and height > 2 * size:
        # A font of size 1 scaled up: the words' usual height, as a bracket or a raised
        # marker makes the line's own box taller than its text.
        heights = sorted(box[3] - box[1] for box in boxes)
        return round(heights[len(heights) // 2] / _HEIGHT_PER_SIZE * 2) / 2
    return size


def char_bold(textpage: ctypes.c_void_p, index: int) -> bool:
    weight = _FONT_WEIGHT(textpage, index)
    if weight >= _BOLD_WEIGHT:
        return True
    lowered = font_name(textpage, index).lower()
    return any(marker in lowered for marker in _BOLD_NAMES)


def font_name(textpage: ctypes.c_void_p, index: int) -> str:
    name = ctypes.create_string_buffer(64)  # a longer name is cut short, which is fine
    _FONT_INFO(textpage, index, name, len(name), None)
    return name.value.decode("latin-1")


def page_text(textpage: ctypes.c_void_p, count: int) -> str:
    """The page text, one Python character per pdfium character index.

    The text comes in one call; when its length does not match the character count
    (a glyph expanded to several characters, say) it cannot be indexed by character,
    and each character's code is asked for instead. Surrogate halves stay separate here
    and are paired again when a line's text is finished.
    """
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(textpage, 0, count, buffer)
    if written == count + 1:
        text = "".join(map(chr, buffer[:count]))
    else:
        get_unicode = pdfium_c.FPDFText_GetUnicode
        codes = (get_unicode(textpage, index) for index in range(count))
        text = "".join(chr(code) if code <= 0x10FFFF else "\ufffd" for code in codes)
    return with_t1_codes(text, lambda index: font_name(textpage, index))


def decoded(text: str) -> str:
    """Surrogate halves (kept apart per character) paired again."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
