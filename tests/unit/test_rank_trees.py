"""The boosted trees the rank head reads (``answer/scorer/trees.py``)."""

from __future__ import annotations

import numpy as np

from askalong.answer.scorer.model import RANK_COLUMNS, shipped_scorer
from askalong.answer.scorer.trees import trees_from

# Two trees over columns ("a", "b"): the first splits on b <= 0.5 then a <= 2; the second
# is a single split on a <= 0.
SPEC = {
    "columns": ["a", "b"],
    "feature": [1, 0, -1, -1, -1, 0, -1, -1],
    "threshold": [0.5, 2.0, 0, 0, 0, 0.0, 0, 0],
    "left": [1, 2, 0, 0, 0, 6, 0, 0],
    "right": [4, 3, 0, 0, 0, 7, 0, 0],
    "value": [0, 0, 1.0, 2.0, 3.0, 0, -1.0, 10.0],
    "roots": [0, 5],
    "depth": 2,
}


def test_each_row_sums_the_leaves_it_reaches() -> None:
    trees = trees_from(SPEC, ("z", "a", "b"))  # the rows hold a column the trees skip
    rows = np.array(
        [
            [9.0, 1.0, 0.0],  # b <= 0.5, a <= 2: 1; a > 0: 10
            [9.0, 3.0, 0.0],  # b <= 0.5, a > 2: 2; a > 0: 10
            [9.0, -1.0, 0.9],  # b > 0.5: 3; a <= 0: -1
            [9.0, 0.0, 0.5],  # a threshold's own value goes left: b -> 1, then a -> 1; a <= 0: -1
        ]
    )
    assert trees(rows).tolist() == [11.0, 12.0, 2.0, 0.0]


def test_the_shipped_rank_head_reads_its_trees() -> None:
    scorer = shipped_scorer()
    trees = scorer.rank_trees["embedded"]
    assert len(trees.roots) >= 50 and trees.columns == tuple(range(len(RANK_COLUMNS)))
    rng = np.random.default_rng(0)
    inputs = rng.normal(size=(6, len(RANK_COLUMNS)))
    score = RANK_COLUMNS.index("sentence_score")
    rows, scores, entries = inputs[:, :score], inputs[:, score], inputs[:, score + 1 :]
    ranks = scorer.rank_scores(rows, scores, entries, embedded=True)
    assert np.allclose(ranks, scorer.rank["embedded"](np.hstack([inputs, trees(inputs)[:, None]])))
    assert np.ptp(ranks) > 0
