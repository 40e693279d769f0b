"""Printing for the CLI: rich for people (stderr for progress), stable JSON for scripts.

Names and document text reach the terminal through ``shown`` (or ``shorten``, which uses
it): a file name or a PDF title is the file's author's to choose, and an escape sequence
printed raw recolours, retitles or rewrites the terminal."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any, NoReturn

from rich.console import Console
from rich.markup import escape

from askalong.wire import block_json, chunk_json, document_json

__all__ = [
    "block_json",
    "chunk_json",
    "console",
    "document_json",
    "err_console",
    "fail",
    "print_json",
    "shorten",
    "shown",
]

# emoji=False: a quote is shown as written (":smile:" stays text), and rich's 3,600-code
# emoji table is not loaded at every answer printed.
console = Console(highlight=False, soft_wrap=True, emoji=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def fail(message: str) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {shown(message)}")
    sys.exit(1)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters, made safe by ``shown``."""
    flat = " ".join(text.split())
    return shown(flat if len(flat) <= width else flat[: width - 1] + "…")


# Characters that steer the display rather than show: the bidirectional embeddings,
# overrides and isolates (U+202E makes "txt.exe" of "exe.txt"). Other format characters,
# such as the joiners inside emoji and Indic words, are left alone.
# Controls (C0, DEL, C1), lone surrogates and the line and paragraph separators.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
_DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def shown(text: str, *, lines: bool = False) -> str:
    """``text`` for the terminal: never markup, and every control character, direction
    control or lone surrogate written as an escape (``\\x1b``, ``\\u202e``); ``lines``
    keeps line breaks and tabs (an answer's paragraphs)."""
    kept = "\n\t" if lines else ""
    return escape("".join(ch if ch in kept else _visible(ch) for ch in text))


def _visible(ch: str) -> str:
    if ch not in _DIRECTION_CONTROLS and unicodedata.category(ch) not in _ESCAPED_CATEGORIES:
        return ch
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by the OS as a surrogate
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
