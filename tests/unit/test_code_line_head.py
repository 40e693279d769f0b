"""The learned order of code lines over each line's kind, an experiment
(``training/code_line_head.py``, issue 32): a line's role (definition, code, line comment,
docstring prose, a doctest's prompt and output) is read from the lines themselves, and a
head fitted on questions answered by code under doctests orders that code first."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from code_line_head import WORD_COLUMNS, by_head, fitted, kind_columns, line_roles, word_rows

from askalong.asking.code_lines import code_lines
from askalong.context.code import code_anchor_unit
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse

INTWORD_PY = '''def intword(value):
    """Converts a large integer to a friendly text representation.

    Examples:
        >>> intword("100")
        '100'
        >>> intword("12400")
        '12.4 thousand'

    Works best for numbers over a thousand.
    """
    # small numbers are written as they are
    if value < 1000:
        return str(value)
    return "%.1f thousand" % (value / 1000)
'''


def intword_lines() -> list:
    blocks = parse(INTWORD_PY.encode(), source="number.py").blocks
    file = SourceFile("number.py", "number.py", blocks)
    units = [code_anchor_unit(Place(file, b), 0, len(b.text)) for b in blocks]
    return list(code_lines(units))


def test_each_line_s_role_is_read_from_the_lines() -> None:
    lines = intword_lines()
    roles = {line.text.strip(): role for line, role in line_roles(lines).items()}
    assert roles["def intword(value):"] == "definition"
    assert roles['"""Converts a large integer to a friendly text representation.'] == "doc"
    assert roles['>>> intword("100")'] == "doctest"
    assert roles["'12.4 thousand'"] == "doctest"  # a prompt's output, right under it
    assert roles["Works best for numbers over a thousand."] == "doc"  # a blank line between
    assert roles["# small numbers are written as they are"] == "line_comment"
    assert roles["return str(value)"] == "code"


def test_a_head_fitted_on_code_answers_under_doctests_puts_the_code_first() -> None:
    lines = intword_lines()
    kinds = kind_columns(lines, lines)
    # BM25's order as it ranks docstring prose and doctests: the code answering last
    ranked = [ln for ln in lines if ln.comment] + [ln for ln in lines if not ln.comment]
    answer = next(ln for ln in lines if ln.text.strip() == "return str(value)")
    rows = word_rows(ranked, kinds)
    gold = np.array([ln == answer for ln in ranked])
    weights = fitted([(rows, gold)] * 3, 0.01)
    assert weights.shape == (len(WORD_COLUMNS),)
    assert weights[WORD_COLUMNS.index("code")] > weights[WORD_COLUMNS.index("doc")]
    assert by_head(ranked, rows, weights)[0] == answer
