"""The learned ranker of code lines, an experiment (``training/code_lines.py``, issue 32
item 4): its features read general properties of a line, the hand rules are one of its
weight vectors (the same order as ``code_answers``' BM25 times priors), and fitting moves
a line holding the asked value first."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from code_line_features import FEATURES, line_features
from code_lines import fit, rules_weights, scores

from askalong.asking.code_lines import Asked, CodeLine, line_terms, ranked
from askalong.types import BlockSpan

SOURCE = [
    (0, "def retry(attempts=3, delay=0.5):", False),
    (0, '"""Retry a call a few times, waiting between attempts."""', True),
    (0, "for attempt in range(attempts):", False),
    (0, "time.sleep(delay)", False),
    (1, "class Timer:", False),
    (1, "# how long to wait before the next attempt", True),
    (1, "self.wait = 10", False),
    (1, "return self.wait", False),
]


def lines() -> list[CodeLine]:
    out, offset = [], 0
    for unit, text, comment in SOURCE:
        out.append(CodeLine(unit, BlockSpan("b", offset, offset + len(text)), text, comment))
        offset += len(text) + 1
    return out


def test_features_read_kind_place_and_the_window() -> None:
    rows = line_features(lines(), {0, 1, 2, 3}, Asked(line_terms("how long to wait")))
    column = {name: rows[:, k] for k, name in enumerate(FEATURES)}
    assert rows.shape == (len(SOURCE), len(FEATURES))
    assert column["no_term"][4] == 1 and column["no_term"][6] == 0  # ``self.wait``: wait
    assert column["window_coverage"][4] > 0  # the comment under ``class Timer:`` holds it
    assert column["place_in_unit"][4] == 0 and column["place_in_unit"][7] == 1
    assert column["returns"][7] == 1 and column["assigns"][6] == 1
    assert column["definition_line"][0] == 1 and column["definition_line"][4] == 1
    assert column["own"][0] == 1 and column["own"][4] == 0


def test_the_rules_are_one_weight_vector_of_the_ranker() -> None:
    """BM25 times 1/0.6 for the subject's own lines and 1.5 for a literal when a value
    is asked is a sum of logarithms: the linear ranker orders the lines as they do."""
    code = lines()
    wanted = line_terms("the default delay between attempts")
    prior = [(1.0 if ln.unit == 0 else 0.6) * (1.5 if any(c.isdigit() for c in ln.text) else 1)
             for ln in code]  # fmt: skip
    expected = [ln.text for _, ln in ranked(code, wanted, prior)]
    rows = line_features(code, {0, 1, 2, 3}, Asked(wanted, valued=True))
    n = len(FEATURES)
    weights = {"weights": rules_weights(), "mean": np.zeros(n), "scale": np.ones(n)}
    score = scores(weights, rows)
    holding = [i for i in range(len(code)) if not rows[i, FEATURES.index("no_term")]]
    assert [code[i].text for i in sorted(holding, key=lambda i: (-score[i], i))] == expected


def test_fitting_puts_the_line_holding_the_asked_value_first() -> None:
    """Groups whose answer is always the line assigning a number, which BM25 ranks
    below the definition line: the fitted ranker orders it first on a new group."""
    code = lines()
    wanted = line_terms("how long does the timer wait")
    rows = line_features(code, {4, 5, 6, 7}, Asked(wanted, valued=True))
    labels = np.array([text == "self.wait = 10" for _, text, _ in SOURCE], dtype=float)
    assert int(np.argmax(scores(_rules(), rows))) != 6
    weights = fit([(rows, labels)] * 20, 0.01)
    assert int(np.argmax(scores(weights, rows))) == 6


def _rules() -> dict[str, np.ndarray]:
    n = len(FEATURES)
    return {"weights": rules_weights(), "mean": np.zeros(n), "scale": np.ones(n)}
