"""How the rank head is fitted (``training/readers.py``): the direct-match columns kept
from counting against a sentence, and the groups kept between runs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "training"), str(ROOT / "benchmarks")]
from readers import Groups, _cached, fit_beside  # noqa: E402


def _groups_where_matching_loses(n: int = 60) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Groups of three candidates whose gold row has the lowest first column and the
    highest second: an unconstrained fit weighs the first column against a sentence."""
    rng = np.random.default_rng(0)
    x = np.vstack([np.column_stack([[0.1, 0.8, 0.9], [0.9, 0.2, 0.1]]) for _ in range(n)])
    x += rng.normal(0, 0.05, x.shape)
    y = np.tile([1.0, 0.0, 0.0], n)
    return x, y, np.repeat(np.arange(n), 3)


def test_a_floored_column_never_counts_against_a_sentence() -> None:
    x, y, group = _groups_where_matching_loses()
    free = fit_beside(x, np.zeros(len(y)), y, group)
    floored = fit_beside(x, np.zeros(len(y)), y, group, np.array([0]))
    assert free[0] < -0.5  # the data push it below zero
    assert floored[0] >= 0.0
    assert floored[1] > 0.5  # the other column still learns


def test_groups_are_kept_and_read_back(tmp_path: Path) -> None:
    made: list[int] = []

    def make() -> Groups:
        made.append(1)
        return Groups(np.ones((3, 2)), np.array([1.0, 0, 0]), np.zeros(3, int), np.array(["s"]))

    first = _cached(tmp_path, "s", make)
    again = _cached(tmp_path, "s", make)
    assert made == [1]
    assert np.array_equal(first.x, again.x) and list(again.sets) == ["s"]
