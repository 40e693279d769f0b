"""Printed lines -> one block text with exact per-line offsets.

Each line is cleaned on its own (ligatures, pdfium's hyphen marks, control characters,
runs of spaces) before the offsets are counted, so offsets index the final text. Lines
are joined with a space in English, with nothing between Chinese characters, and a
hyphen at a line end is dropped when it split a word ("exam-" + "ple").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.parse.pdf.chars import Line
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
_HYPHENS = ("-", "\u2010")
# CJK ideographs, kana, hangul and full-width punctuation: lines join without a space.
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


@dataclass(frozen=True)
class BlockText:
    text: str
    boxes: tuple[LineBox, ...]


def clean_line(text: str) -> str:
    text = _CONTROL.sub("", text.translate(_LIGATURES))
    return _SPACES.sub(" ", text).strip()


def join_lines(lines: Sequence[Line]) -> BlockText:
    """The block text of ``lines`` and one LineBox per non-empty line."""
    parts: list[str] = []
    boxes: list[LineBox] = []
    length = 0
    for line in lines:
        text = clean_line(line.text)
        if not text:
            continue
        if parts:
            joiner, keep = _joint(parts[-1], text)
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


def _joint(prev: str, text: str) -> tuple[str, int]:
    """The joiner between two lines and how much of ``prev`` to keep."""
    if _is_word_split(prev, text):
        return "", len(prev) - 1
    if _CJK.match(prev[-1]) and _CJK.match(text[0]):
        return "", len(prev)
    return " ", len(prev)


def _is_word_split(prev: str, text: str) -> bool:
    if len(prev) < 2 or not prev.endswith(_HYPHENS) or not prev[-2].isalpha():
        return False
    first_word = text.split(" ", 1)[0]
    # "state-" + "of-the-art" keeps its hyphen: the rest is itself hyphenated.
    return text[0].islower() and "-" not in first_word
