"""The rank head's trees (issue 32): a boosted ensemble of small regression trees over the
rank head's columns (``RANK_COLUMNS``), fitted by LambdaRank on the readers' groups, in
place of the linear rank head (``readers.py``).

A linear model weighs each column alone; the trees weigh them together (a sentence that
covers the question's words but adds nothing new, a close e5 cosine on a heading). Same
groups as the linear head (the readers' recorded plain questions of the sets given, each
set's reader cosine from the fold model not trained on it: ``--states`` /
``--reader-folds``; ``--public N`` questions of each public DEV set). The ensemble's
score, times a temperature fitted by the listwise softmax on its out-of-fold scores (four
folds by set), is the rank score: the runner-up share, the refusal, read-on and intent
heads read it on the scale the linear head's softmax fit gave them.

``cross`` fits on the recordings given and ranks the groups of ``--judge`` recordings
(sets in no fit), beside the shipped head; ``fit`` writes ``weights.json``'s ``rank``
(the temperature over the single column ``trees``) and ``rank_trees`` (embedded variant;
every other head kept). LightGBM is a training-only dependency (a ``pip install
--target`` folder on ``PYTHONPATH``); the package evaluates the exported trees in numpy
(``answer/scorer/trees.py``), checked equal to LightGBM's own scores at export.

    R="/work/data/rec/unseen.pkl … /work/data/rec/unseen16.pkl"
    PYTHONPATH=src:benchmarks:training:$LGBM python training/rank_trees.py fit $R \\
        --public 200 --states states8.npz --reader-folds bi-a-l4.npz bi-b-l4.npz --cache G
    PYTHONPATH=src:benchmarks:training:$LGBM python training/rank_trees.py cross $R \\
        --judge /work/data/rec/unseen17.pkl … --public 200 --states … --reader-folds …
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
from reader_layers import add_folds_argument
from readers import (
    BESIDE,
    DIRECT_MATCH,
    Groups,
    HeadFit,
    _dense,
    collected,
    embedder_for,
    fitted,
    head_groups,
)
from train import OUT, listwise_grad, spec, starts_of, store_heads, top1

from askalong.answer.scorer.model import RANK_COLUMNS, network
from askalong.answer.scorer.trees import trees_from

# Small trees, many rows a leaf, a slow rate: the groups are ~2,000 questions of ~20
# sentences; on the sets in no fit (unseen17 … unseen20, 562 groups) shapes from 3 to 31
# leaves ranked the right sentence first 332-336 times, the linear head 306.
PARAMETERS: dict[str, Any] = {
    "objective": "lambdarank",
    "lambdarank_truncation_level": 10,
    "num_leaves": 7,
    "min_data_in_leaf": 100,
    "learning_rate": 0.05,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "seed": 53,
    "deterministic": True,
    "num_threads": 1,
    "verbose": -1,
}
ROUNDS = 200
FOLDS = 4
TEMPERATURES = np.linspace(0.2, 6.0, 59)


def boosted(x: np.ndarray, y: np.ndarray, group: np.ndarray) -> Any:
    """The ensemble fitted on rows ``x`` labelled ``y`` in contiguous groups ``group``
    (a LightGBM booster: imported here, a training-only dependency)."""
    import lightgbm as lgb

    data = lgb.Dataset(x, y, group=np.bincount(_dense(group)))
    return lgb.train(PARAMETERS, data, num_boost_round=ROUNDS)


def out_of_fold(g: Groups) -> np.ndarray:
    """Each row's score from an ensemble fitted on the other folds' sets (sets dealt to
    ``FOLDS`` folds in name order)."""
    names = sorted(set(g.sets))
    fold = np.array([names.index(s) % FOLDS for s in g.sets])[g.group]
    out = np.zeros(len(g.y))
    for k in range(FOLDS):
        held = fold == k
        out[held] = boosted(g.x[~held], g.y[~held], g.group[~held]).predict(g.x[held])
    return out


def temperature(scores: np.ndarray, y: np.ndarray, group: np.ndarray) -> float:
    """The scale of ``scores`` whose softmax gives the gold rows most share per group."""
    dense = _dense(group)
    starts = starts_of(dense)
    return float(min(TEMPERATURES, key=lambda t: listwise_grad(t * scores, y, starts, dense)[0]))


def flat(booster: Any) -> dict[str, Any]:
    """The ensemble as ``trees.Trees`` reads it (every tree's nodes in one set of lists)."""
    out: dict[str, list[Any]] = {k: [] for k in ("feature", "threshold", "left", "right", "value")}
    roots, depth = [], 0
    for tree in booster.dump_model()["tree_info"]:
        roots.append(len(out["feature"]))
        depth = max(depth, _flatten(tree["tree_structure"], out, 0))
    return {"columns": list(RANK_COLUMNS), **out, "roots": roots, "depth": depth}


def _flatten(node: dict[str, Any], out: dict[str, list[Any]], level: int) -> int:
    """Append ``node`` and its subtree; the subtree's depth below ``level``."""
    at = len(out["feature"])
    for key in out:
        out[key].append(0 if key != "feature" else -1)
    if "leaf_value" in node:
        out["value"][at] = float(node["leaf_value"])
        return level
    if node["decision_type"] != "<=" or node.get("missing_type", "None") not in ("None", "NaN"):
        raise ValueError(f"unexpected split: {node['decision_type']} {node.get('missing_type')}")
    out["feature"][at] = int(node["split_feature"])
    out["threshold"][at] = float(node["threshold"])
    out["left"][at] = len(out["feature"])
    deep = _flatten(node["left_child"], out, level + 1)
    out["right"][at] = len(out["feature"])
    return max(deep, _flatten(node["right_child"], out, level + 1))


def exported(booster: Any, x: np.ndarray) -> dict[str, Any]:
    """``flat(booster)``, checked to score ``x`` as LightGBM does."""
    trees = flat(booster)
    mine = trees_from(trees, RANK_COLUMNS)(x)
    gap = float(np.abs(mine - booster.predict(x)).max())
    if gap > 1e-6:
        raise ValueError(f"the exported trees score {gap:.2e} away from LightGBM's")
    return trees


def rank_head(t: float) -> dict[str, Any]:
    """The rank head over the trees' score alone: ``t`` times it."""
    return spec(("trees",), np.zeros(1), np.ones(1), [np.array([[t]]), np.zeros(1)])


def cross(g: Groups, judged: Groups) -> None:
    """Right sentence first in ``judged``'s groups: the linear head (``readers.fitted``,
    the shipped recipe) and the trees, both fitted on ``g``."""
    booster = boosted(g.x, g.y, g.group)
    group = _dense(judged.group)
    linear = network(
        fitted(g, np.ones(len(g.sets), dtype=bool), BESIDE, DIRECT_MATCH), RANK_COLUMNS
    )
    for name, scores in (("linear head", linear(judged.x)), ("trees", booster.predict(judged.x))):
        hits = top1(scores, judged.y, group)
        per = ", ".join(
            f"{s} {int(hits[judged.sets == s].sum())}" for s in sorted(set(judged.sets))
        )
        print(f"{name}: {int(hits.sum())} / {len(hits)} ({per})")


def fit(g: Groups, out: Path) -> None:
    """Write the trees fitted on ``g`` and their temperature as ``out``'s rank head."""
    t = temperature(out_of_fold(g), g.y, g.group)
    trees = exported(boosted(g.x, g.y, g.group), g.x)
    store_heads(out, "embedded", rank=rank_head(t), rank_trees=trees)
    print(f"{len(g.sets)} groups, {len(trees['roots'])} trees, temperature {t:.2f} -> {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross", "fit"))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--judge", type=Path, nargs="*", default=[], help="cross: sets in no fit")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--states", type=Path, help="late_xenc_data.py's cache of the groups")
    add_folds_argument(parser)
    parser.add_argument("--cache", type=Path, help="a folder where the groups are kept")
    parser.add_argument("--public", type=int, default=0, help="public DEV questions a set")
    args = parser.parse_args()
    reader = (args.states, args.reader_folds) if args.reader_folds else None
    embedder = embedder_for(False)
    g = head_groups(args.recordings, embedder, HeadFit(public=args.public), args.cache, reader)
    if args.verb == "fit":
        fit(g, args.out)
    else:
        cross(g, collected(args.judge, embedder, 0, args.cache))


if __name__ == "__main__":
    main()
