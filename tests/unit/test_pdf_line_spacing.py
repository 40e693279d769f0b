"""A justified Chinese line: pdfium reports the stretched gaps between Han characters as
white space; the line's text keeps Chinese and Japanese unspaced, and every other space."""

from __future__ import annotations

import pytest

from askalong.parse.pdf.chars import _LineBuilder

BOX = (0.0, 0.0, 10.0, 10.0)


def line_of(pieces: list[str]) -> str:
    builder = _LineBuilder()
    for index, piece in enumerate(pieces):
        builder.add(piece, index, BOX, spaced=index > 0)
    return "".join(builder.parts)


@pytest.mark.parametrize(
    ("pieces", "text"),
    [
        (["提示對", "於", "使", "用", "stable", "套", "件"], "提示對於使用 stable 套件"),
        (["系", "統", "而", "言，", "在"], "系統而言，在"),
        (["ひらがな", "カタカナ"], "ひらがなカタカナ"),
        (["see", "the", "manual"], "see the manual"),
        (["한국어", "문장"], "한국어 문장"),  # Hangul spaces its words
        (["版本", "2.1"], "版本 2.1"),
    ],
)
def test_chinese_pieces_meet_without_a_space(pieces: list[str], text: str) -> None:
    assert line_of(pieces) == text
