"""Printed lines -> one block text with exact per-line offsets.

Each line is cleaned on its own (ligatures, pdfium's hyphen marks, control characters,
runs of spaces) before the offsets are counted, so offsets index the final text. Lines
are joined with a space in English, with nothing between Chinese characters, and with
nothing after a hyphen at a line end, which ``hyphens`` keeps ("document-level") or drops
("exam-" + "ple") from the document's own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.parse.pdf.hyphens import NO_WORDS, Vocabulary, ends_in_hyphen, keeps_hyphen
from askalong.parse.pdf.printed import Line
from askalong.types import LineBox

_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        "\ufffe": "-",  # pdfium marks a hyphen at a line end with U+FFFE ...
        "\x02": "-",  # ... or, asked one character at a time, with U+0002
        "\u00ad": "-",
        "\u00a0": " ",
        "\u3000": " ",
        "\ufffd": "",
    }
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200d\ufeff]")
_SPACES = re.compile(r"\s+")
_NUMBER_RANGE = re.compile(r"\d[-\u2010\u2011\u2013\u2014\u2212]$")
# CJK ideographs, kana, hangul and full-width punctuation: lines join without a space.
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


@dataclass(frozen=True)
class BlockText:
    text: str
    boxes: tuple[LineBox, ...]


def clean_line(text: str) -> str:
    text = _CONTROL.sub("", text.translate(_LIGATURES))
    return _SPACES.sub(" ", text).strip()


def join_lines(
    lines: Sequence[Line], known: Vocabulary = NO_WORDS, *, code: bool = False
) -> BlockText:
    """The block text of ``lines`` and one LineBox per non-empty line; ``known`` holds
    the document's words, to tell a split word from a compound at a line end. ``code``
    keeps each printed line a line of its own (a listing)."""
    parts: list[str] = []
    boxes: list[LineBox] = []
    length = 0
    for line in lines:
        text = clean_line(line.text)
        if not text:
            continue
        if parts:
            joiner, keep = ("\n", len(parts[-1])) if code else _joint(parts[-1], text, known)
            if keep < len(parts[-1]):
                parts[-1] = parts[-1][:keep]
                length -= _trim_last(boxes, keep)
            parts.append(joiner)
            length += len(joiner)
        parts.append(text)
        boxes.append(LineBox(line.x0, line.top, line.x1, line.bottom, length, length + len(text)))
        length += len(text)
    return BlockText("".join(parts), tuple(boxes))


def _trim_last(boxes: list[LineBox], keep: int) -> int:
    """Cut the last box's text to ``keep`` characters; return how many were dropped."""
    last = boxes[-1]
    dropped = last.end - last.start - keep
    boxes[-1] = LineBox(last.x0, last.top, last.x1, last.bottom, last.start, last.start + keep)
    return dropped


def _joint(prev: str, text: str, known: Vocabulary) -> tuple[str, int]:
    """The joiner between two lines and how much of ``prev`` to keep."""
    if ends_in_hyphen(prev):
        return "", len(prev) - (0 if keeps_hyphen(prev, text, known) else 1)
    if _NUMBER_RANGE.search(prev) and text[0].isdigit():  # "84-" / "91"
        return "", len(prev)
    if _CJK.match(prev[-1]) and _CJK.match(text[0]):
        return "", len(prev)
    return " ", len(prev)
