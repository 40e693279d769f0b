"""Raw character codes of TeX text fonts in the T1 (Cork) encoding -> their characters.

A TeX font embedded without a ToUnicode map (a Type 3 bitmap font, often unnamed) reaches
us as its raw codes, which are control characters; the line cleaning drops those, so the
strucchange vignette read "using years 19861989" and "signicance". Each code becomes one
character here (ligatures as their U+FBxx form, expanded later by the line cleaning), so
the text still indexes pdfium's characters. The same codes in a math font are big
delimiters ("CMEX10") or arrow tips ("XYDASH10"), so characters of such a font stay as
they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_T1_CODES = {
    "\x10": "\u201c",  # quotedblleft
    "\x11": "\u201d",  # quotedblright
    "\x15": "\u2013",  # endash
    "\x16": "\u2014",  # emdash
    "\x1b": "\ufb00",  # ff
    "\x1c": "\ufb01",  # fi
    "\x1d": "\ufb02",  # fl
    "\x1e": "\ufb03",  # ffi
    "\x1f": "\ufb04",  # ffl
}
_T1_CODE = re.compile("[" + "".join(_T1_CODES) + "]")
# Math fonts and the picture fonts of xy-pic and LaTeX's picture mode (arrow tips, dashes).
_MATH_FONT = re.compile(
    r"cmex|cmsy|cmmi|msam|msbm|math|symbol|^xy|^l?circle|^l?line", re.IGNORECASE
)


def with_t1_codes(text: str, font_name: Callable[[int], str]) -> str:
    """``text`` with each T1 code outside a math font replaced by its character;
    ``font_name`` gives the font name of the character at an index."""
    chars: list[str] | None = None
    for match in _T1_CODE.finditer(text):
        index = match.start()
        if _MATH_FONT.search(font_name(index)):
            continue
        chars = chars or list(text)
        chars[index] = _T1_CODES[match.group()]
    return text if chars is None else "".join(chars)
