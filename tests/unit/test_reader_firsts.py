"""How a reader model is measured by its cosine alone (``training/reader_layers.py
firsts``): a group counts when its gold row ranks first; summed models count as one,
trained on every set any of them saw."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "training"), str(ROOT / "benchmarks")]
from reader_layers import _firsts, _summed  # noqa: E402


def test_a_group_counts_when_its_gold_row_is_first() -> None:
    cand_group = np.array([0, 0, 0, 1, 1, 2, 2])
    labels = np.array([0, 1, 0, 1, 0, 0, 1])
    column = np.array([0.1, 0.9, 0.2, 0.3, 0.8, 0.1, 0.5])
    assert _firsts(column, cand_group, labels, np.array([0, 1, 2])) == 2
    assert _firsts(column, cand_group, labels, np.array([1])) == 0


def test_summed_models_add_their_cosines_and_their_training_sets(tmp_path: Path) -> None:
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    np.savez(a, scores=np.array([2.0, 4.0]), scale=np.array([2.0]), fit=np.array(["unseen"]))
    np.savez(b, scores=np.array([3.0, 0.0]), scale=np.array([3.0]), fit=np.array(["unseen2"]))
    total, fit = _summed([a, b])
    assert np.allclose(total, [2.0, 2.0]) and fit == {"unseen", "unseen2"}
