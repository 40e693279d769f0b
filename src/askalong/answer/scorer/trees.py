"""A boosted ensemble of regression trees evaluated in numpy (the rank head's trees: issue
32). ``training/rank_trees.py`` fits it and writes it flat: every node of every tree in
one set of arrays, a leaf marked by feature -1; a row goes left where its feature's value
is at most the node's threshold. Its score is the sum of the leaves its row reaches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Trees:
    """The flat ensemble: per node its feature (-1: a leaf), threshold, children and leaf
    value; ``roots`` each tree's first node; ``depth`` the deepest path's length."""

    columns: tuple[int, ...]  # the input columns the features number
    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    depth: int

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        x = np.asarray(rows, dtype=np.float64)[:, self.columns]
        node = np.broadcast_to(self.roots, (len(x), len(self.roots))).copy()
        at = np.arange(len(x))[:, None]
        for _ in range(self.depth):
            feature = self.feature[node]
            leaf = feature < 0
            goes_left = x[at, np.maximum(feature, 0)] <= self.threshold[node]
            node = np.where(leaf, node, np.where(goes_left, self.left[node], self.right[node]))
        return self.value[node].sum(axis=1)


def trees_from(spec: dict[str, Any], names: tuple[str, ...]) -> Trees:
    """``Trees`` from their JSON form; ``names`` the columns the rows hold."""
    return Trees(
        tuple(names.index(str(c)) for c in spec["columns"]),
        np.asarray(spec["feature"], dtype=np.int64),
        np.asarray(spec["threshold"], dtype=np.float64),
        np.asarray(spec["left"], dtype=np.int64),
        np.asarray(spec["right"], dtype=np.int64),
        np.asarray(spec["value"], dtype=np.float64),
        np.asarray(spec["roots"], dtype=np.int64),
        int(spec["depth"]),
    )
