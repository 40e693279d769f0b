"""The read-on window (issue 32): the direct answer is the best sentence with what it
leads into when the ``read_on`` head chooses it, never past the answer's shape, and the
best sentence with its pair otherwise."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from tests.unit.test_answer_choice import unit_of
from tests.unit.test_learned_answer import Ranked

from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.learned import learned_answer
from askalong.answer.extractive.read_on import read_on_row
from askalong.answer.scorer.features import READ_ON
from askalong.answer.scorer.model import Scorer, network, shipped_scorer
from askalong.question.reading import read_question
from askalong.types import BlockKind

LEAD_IN = "Installing the plugin takes two steps."
STEP = "Copy plugin.so into the folder named by plugin_dir."
QUESTION = read_question("How do I install the plugin?")


def _reading_on_lists(threshold: float = 0.5) -> Scorer:
    """The shipped heads with the best sentence first (``Ranked``) and a read-on head that
    reads on exactly when the next block is a list item (``READ_ON``'s ``next_list``)."""
    shipped = shipped_scorer()
    head = {
        "columns": ["next_list"],
        "mean": [0.0],
        "scale": [1.0],
        "layers": [{"w": [[10.0]], "b": [-5.0]}],
    }
    ranked = Ranked(shipped.sentence, shipped.answerable, shipped.thresholds)
    return replace(ranked, read_on={"lexical": (network(head, READ_ON), threshold)})


def _answer(blocks: list[tuple[BlockKind, str]], scorer: Scorer) -> str:
    return learned_answer(QUESTION, [unit_of(blocks, 0)], scorer=scorer).answer


def test_a_lead_in_above_a_list_reads_on_into_its_first_step() -> None:
    blocks: list[tuple[BlockKind, str]] = [
        ("paragraph", LEAD_IN),
        ("list_item", STEP),
        ("paragraph", "Restart the server afterwards."),
    ]
    assert STEP in _answer(blocks, _reading_on_lists())
    shipped = shipped_scorer()
    plain = Ranked(shipped.sentence, shipped.answerable, shipped.thresholds)
    assert STEP not in _answer(blocks, plain)  # no head: the best sentence alone


def test_the_window_is_not_taken_where_the_head_says_no() -> None:
    blocks: list[tuple[BlockKind, str]] = [("paragraph", LEAD_IN), ("paragraph", STEP)]
    assert STEP not in _answer(blocks, _reading_on_lists())  # a paragraph, not a list
    listed: list[tuple[BlockKind, str]] = [("paragraph", LEAD_IN), ("list_item", STEP)]
    assert STEP not in _answer(listed, _reading_on_lists(threshold=0.999))


def test_the_window_never_overruns_the_answers_shape() -> None:
    long_step = " ".join(["copy"] * 90)
    blocks: list[tuple[BlockKind, str]] = [("paragraph", LEAD_IN), ("list_item", long_step)]
    assert _answer(blocks, _reading_on_lists()).startswith(LEAD_IN)
    assert "copy copy" not in _answer(blocks, _reading_on_lists())


def test_the_row_reads_the_lead_in_and_the_block_after_it() -> None:
    units = [
        unit_of([("paragraph", "To install it, run:"), ("code", "pip install plugin")], 0),
    ]
    lead, code = candidates(units)
    row = dict(zip(READ_ON, read_on_row(QUESTION, {}, [lead], [lead, code]), strict=True))
    assert row["best_announces"] == 1.0 and row["next_code"] == 1.0
    assert row["next_same_block"] == 0.0 and row["method"] == 1.0
    assert row["next_unranked"] == 1.0 and row["other_size"] == 0.0
    assert row["next_terms"] > 0.0  # "install" is the question's
    assert np.isfinite(read_on_row(QUESTION, {}, [lead], [lead, code])).all()


def test_the_shipped_read_on_head_is_a_linear_model_of_general_columns() -> None:
    """Fitted on readers' questions (``training/read_on.py``): one linear layer over
    ``READ_ON``, reading on more readily where the window only adds to the best sentence
    and where the rank head scores the next sentence closer to the best."""
    head, threshold = shipped_scorer().read_on["embedded"]
    weights = head.layers[0][0]
    assert len(head.layers) == 1 and weights.shape == (len(READ_ON), 1)
    assert weights[READ_ON.index("holds_pair"), 0] > 0
    assert weights[READ_ON.index("next_gap"), 0] > 0
    assert 0.5 <= threshold < 1.0
    assert "lexical" not in shipped_scorer().read_on  # the lexical variant keeps the pair


def test_the_fit_learns_which_answer_holds_the_gold() -> None:
    """On examples where the window wins exactly when the next block is a list, the fitted
    head reads on there and not elsewhere; examples where both answers agree teach nothing."""
    root = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(root / "training"), str(root / "benchmarks")]
    from read_on import Example, fitted

    def example(listed: bool, window_hit: bool, pair_hit: bool) -> Example:
        row = np.zeros(len(READ_ON))
        row[READ_ON.index("next_list")] = float(listed)
        row[READ_ON.index("next_gap")] = -1.0 + 0.1 * window_hit  # a little spread
        return Example("s", "how", pair_hit, window_hit, row)

    found = [example(True, True, False)] * 20 + [example(False, False, True)] * 20
    found += [example(False, True, True)] * 50  # agreeing: left out of the fit
    mean, scale, w, b = fitted(found)

    def reads_on(listed: bool) -> bool:
        row = example(listed, listed, not listed).row
        assert row is not None
        return float(((row - mean) / scale) @ w + b) > 0

    assert reads_on(True) and not reads_on(False)
