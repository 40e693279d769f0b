"""Dashes and ligatures survive: a TeX T1 font without a ToUnicode map reaches us as raw
control codes ("1986\\x151989", "signi\\x1ccance"), which the line cleaning used to drop
("19861989", "signicance"); every dash kind between numbers is kept, at a line end too."""

from __future__ import annotations

import pytest

from askalong.parse.pdf.hyphens import vocabulary
from askalong.parse.pdf.printed import Line
from askalong.parse.pdf.tex_codes import with_t1_codes
from askalong.parse.pdf.text import clean_line, join_lines


def _text_font(index: int) -> str:
    return ""  # a Type 3 bitmap font: no name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("years 1986\x151989 as the history", "years 1986\u20131989 as the history"),
        ("processes are\x16as in the retrospective", "processes are\u2014as in the retrospective"),
        ("the standard signi\x1ccance test", "the standard significance test"),
        ("empirical \x1ductuation processes", "empirical fluctuation processes"),
        ("coe\x1ecients, o\x1bers, ba\x1fe", "coefficients, offers, baffle"),
        ("the process \x10looks\x11 like", "the process \u201clooks\u201d like"),
    ],
)
def test_t1_codes_become_their_characters(raw: str, expected: str) -> None:
    text = with_t1_codes(raw, _text_font)
    assert len(text) == len(raw)  # one character per pdfium index
    assert clean_line(text) == expected


def test_math_font_codes_are_not_read_as_quotes() -> None:
    raw = "n \x10 X(i) \x11 2"  # CMEX10's big parentheses share the quotes' codes

    def font(index: int) -> str:
        return "CMEX10" if raw[index] in "\x10\x11" else "CMMI10"

    assert clean_line(with_t1_codes(raw, font)) == "n X(i) 2"


@pytest.mark.parametrize("font", ["CMEX10", "MSAM10", "LMMathSymbols10-Italic", "XYDASH10"])
def test_picture_and_math_font_codes_are_dropped(font: str) -> None:
    assert clean_line(with_t1_codes("a \x15\x1f b", lambda index: font)) == "a b"


@pytest.mark.parametrize("dash", ["-", "\u2010", "\u2011", "\u2013", "\u2014", "\u2212"])
def test_every_dash_between_numbers_is_kept(dash: str) -> None:
    assert clean_line(f"pages 307{dash}318, 1989") == f"pages 307{dash}318, 1989"


def _line(text: str, top: float) -> Line:
    return Line(text, 72.0, top, 300.0, top + 10.0, 10.0, False)


@pytest.mark.parametrize("dash", ["-", "\u2010", "\u2011", "\u2013", "\u2014", "\u2212"])
def test_a_number_range_split_at_a_line_end_keeps_its_dash(dash: str) -> None:
    lines = [_line(f"using years 1986{dash}", 100.0), _line("1989 as the history", 112.0)]
    text = join_lines(lines, vocabulary([line.text for line in lines])).text
    assert text == f"using years 1986{dash}1989 as the history"
