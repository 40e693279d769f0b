"""General features of a (question, line of code) pair, the columns of the learned line
ranker of ``code_lines.py`` (an experiment, issue 32 item 4; pure).

Each is a property any repository's lines have, never a word list: how much of the
question the line holds (BM25 over the evidence's lines, ``code_lines.ranked``'s score,
and the share of the question's weight it holds), how much its neighbours and its
definition hold (a line answering "what does it compare" may hold no word of the
question while the line above it does), what kind of line it is (definition line,
comment, return, raise, assignment, condition, a literal), where it stands (its
definition's order among the evidence's units, its place inside it, the subject's own or
another's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from askalong.asking.code_lines import (
    LITERAL,
    Asked,
    CodeLine,
    abbreviations,
    bm25_scores,
    idf,
    line_terms,
)
from askalong.text.patterns import lazy

WINDOW = 2  # lines each side of a line, inside its unit, read as its window

FEATURES = (
    "bm25",
    "log_bm25",
    "bm25_relative",
    "coverage",
    "window_coverage",
    "unit_coverage",
    "no_term",
    "abbreviation",
    "comment",
    "definition_line",
    "returns",
    "raises",
    "assigns",
    "condition",
    "literal",
    "value_asked_literal",
    "own",
    "no_subject",
    "unit_order",
    "first_unit",
    "place_in_unit",
    "length",
)

_RETURN = lazy(r"^\s*(?:return|yield)\b")
_RAISE = lazy(r"^\s*(?:raise|throw)\b|\bpanic!?\(|\bErr\(|errors\.New\(|fmt\.Errorf\(")
_ASSIGN = lazy(r"[\w\]\)]\s*(?:[-+*/|&]?=|:=)\s*[^=]")
_CONDITION = lazy(r"^\s*(?:}\s*)?(?:if|elif|else|while|for|switch|case|match|when|except|catch)\b")


def line_features(lines: Sequence[CodeLine], own: set[int], asked: Asked) -> np.ndarray:
    """One row of ``FEATURES`` per line; ``own``: the indexes of the subject's lines
    (empty: no subject)."""
    terms = [line_terms(line.text) for line in lines]
    weights = idf(terms)
    wanted = asked.wanted & weights.keys()
    short = abbreviations(asked.wanted, weights.keys())
    total = sum(weights[t] for t in wanted) or 1.0
    scores = bm25_scores(lines, asked.wanted)
    units = _unit_terms(lines, terms)
    order = {u: k for k, u in enumerate(dict.fromkeys(line.unit for line in lines))}
    rows = []
    for index, (line, held) in enumerate(zip(lines, terms, strict=True)):
        found = sum(weights[t] for t in wanted & held)
        bm25 = scores[index]
        window = frozenset().union(*_window(lines, terms, index))
        unit_lines = units[line.unit]
        rows.append(
            [
                bm25,
                math.log(max(bm25, 1e-3)),  # the rules' product of weights is a sum here
                0.0,  # bm25_relative, once every line's score is known
                found / total,
                sum(weights[t] for t in wanted & window) / total,
                sum(weights[t] for t in wanted & unit_lines[1]) / total,
                float(not (wanted | short) & held),
                float(bool(short & held)),
                float(line.comment),
                float(index == unit_lines[0]),
                float(bool(_RETURN.search(line.text))),
                float(bool(_RAISE.search(line.text))),
                float(bool(_ASSIGN.search(line.text)) and not line.comment),
                float(bool(_CONDITION.search(line.text))),
                float(bool(LITERAL.search(line.text))),
                float(asked.valued and bool(LITERAL.search(line.text))),
                float(index in own),
                float(not own),
                math.log1p(order[line.unit]),
                float(order[line.unit] == 0),
                _place(lines, index),
                math.log1p(len(held)),
            ]
        )
    table = np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))
    if len(rows):
        table[:, 2] = table[:, 0] / max(float(table[:, 0].max()), 1e-9)
    return table


def _unit_terms(
    lines: Sequence[CodeLine], terms: Sequence[frozenset[str]]
) -> dict[int, tuple[int, frozenset[str]]]:
    """Each unit's definition line (its first line of code) and all its terms."""
    first: dict[int, int] = {}
    held: dict[int, set[str]] = {}
    for index, (line, words) in enumerate(zip(lines, terms, strict=True)):
        if not line.comment:
            first.setdefault(line.unit, index)
        held.setdefault(line.unit, set()).update(words)
    return {u: (first.get(u, -1), frozenset(w)) for u, w in held.items()}


def _window(
    lines: Sequence[CodeLine], terms: Sequence[frozenset[str]], index: int
) -> list[frozenset[str]]:
    unit = lines[index].unit
    around = range(max(index - WINDOW, 0), min(index + WINDOW + 1, len(lines)))
    return [terms[i] for i in around if lines[i].unit == unit]


def _place(lines: Sequence[CodeLine], index: int) -> float:
    """Where the line stands in its unit, 0 (first) to 1 (last)."""
    unit = lines[index].unit
    start = index
    while start > 0 and lines[start - 1].unit == unit:
        start -= 1
    end = index
    while end + 1 < len(lines) and lines[end + 1].unit == unit:
        end += 1
    return (index - start) / max(end - start, 1)
