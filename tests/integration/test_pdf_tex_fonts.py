"""The strucchange vignette (TeX T1 fonts with no ToUnicode map) keeps its dashes,
ligatures and quotes, and its big math parentheses do not turn into quotes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from askalong.parse.pdf.parser import parse

_PDF = Path(__file__).parents[2] / "benchmarks/unseen4/docs/strucchange-intro.pdf"


@cache
def _text() -> str:
    document = parse(_PDF.read_bytes(), source=_PDF.name, ocr=False)
    return "\n".join(block.text for block in document.blocks)


def test_en_and_em_dashes_are_kept() -> None:
    text = _text()
    assert "using years 1986\u20131989 as the history period" in text
    assert "40:307\u2013318, 1989" in text
    assert "processes are\u2014as in the retrospective case\u2014the" in text


def test_fi_and_fl_ligatures_are_kept() -> None:
    text = _text()
    assert text.count("significance") >= 5
    assert text.count("fluctuation") >= 40
    assert "signicance" not in text
    assert " uctuation" not in text


def test_quotes_only_around_words() -> None:
    text = _text()
    assert "\u201cno structural change\u201d" in text
    assert "n \u201c X(i)" not in text  # CMEX10's big parenthesis, not a quote
