"""``training/answer_window.py`` (an experiment): the listwise head learns which offer holds
the gold from a column that marks it, keeps the product's answer where no offer scores the
margin above it, and questions where every offer or none holds the gold teach nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def window_module():  # type: ignore[no-untyped-def]
    sys.path[:0] = [str(ROOT / "training"), str(ROOT / "benchmarks")]
    import answer_window

    return answer_window


def offered(module, after_holds: bool, states: bool):  # type: ignore[no-untyped-def]
    """The product's answer and the best sentence with the one after it; the second adds a
    sentence with the answer type's cue where ``states``."""
    columns = module.COLUMNS
    x = np.zeros((2, len(columns)))
    x[0, columns.index("product")] = 1.0
    x[1, columns.index("after")] = 1.0
    x[1, columns.index("states")] = float(states)
    x[:, columns.index("size")] = (0.4, 0.5)
    y = np.array([not after_holds, after_holds], dtype=np.float64)
    return module.Offered("s", "reason", ("product", "after"), x, y)


def test_the_head_chooses_the_offer_a_column_marks() -> None:
    module = window_module()
    groups = [offered(module, True, True)] * 20 + [offered(module, False, False)] * 20
    head = module.fitted(groups, 0.01)
    assert module.chosen(offered(module, True, True), head, 0.0) == 1
    assert module.chosen(offered(module, False, False), head, 0.0) == 0
    assert module.chosen(offered(module, True, True), head, 100.0) == 0  # the margin keeps it


def test_questions_where_every_offer_or_none_holds_teach_nothing() -> None:
    module = window_module()
    decisive = [offered(module, True, True)] * 20 + [offered(module, False, False)] * 20
    agreeing = offered(module, False, True)
    agreeing = module.Offered("s", "reason", agreeing.names, agreeing.x, np.ones(2))
    alone = module.fitted(decisive, 0.01)
    more = module.fitted(decisive + [agreeing] * 50, 0.01)
    for a, b in zip(alone, more, strict=True):
        assert np.allclose(a, b)
