"""Measure the late cross-encoder (issue 32 experiment) by a two-fold split by set: right
sentence first in the held-out groups for the linear rank head (``readers.fitted``), the
late cross-encoder alone, and the linear head with its score as one more column; then the
CPU time of its upper layers over 24 cached candidates (numpy, the package's encoder
arithmetic) and its parameter count.

    PYTHONPATH=src:benchmarks:training python training/late_xenc_measure.py \
        --groups /work/data/s44/groups.pkl --states /work/data/latexenc/states.npz \
        --folds /work/data/latexenc/fold-a.npz /work/data/latexenc/fold-b.npz

Each fold file is ``late_xenc_train.py``'s output (its ``fit`` sets trained it; every other
set is tested). ``--inner`` gives, per fold, two files (``A,B``) whose scores on the fold's
own training groups were made out of sample (each trained on one half of its sets, scoring
the other), so the stacked head's weight for the column is not fitted on in-sample scores.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import time
from pathlib import Path

import numpy as np
from readers import BESIDE, SCORE, Groups, _dense, fit_beside, fitted
from train import standardiser, top1

from _table import markdown_table
from askalong.answer.scorer.model import RANK_COLUMNS, network
from askalong.providers.local.e5.encoder import Encoder
from askalong.providers.local.e5.weights import LayerWeights

CANDIDATES = 24  # candidates of one question timed
REPEATS = 21
COSINE = RANK_COLUMNS.index("cosine")  # the e5 bi-encoder's cosine, where "cosine" starts


def linear_scores(g: Groups, x: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``readers.fitted``'s rank head over columns ``x`` (the sentence score at ``SCORE``),
    fitted on the groups where ``keep``; scores of every row."""
    rows = keep[g.group]
    rest = np.delete(x, SCORE, axis=1)
    mean, scale = standardiser(rest[rows])
    base = BESIDE * x[:, SCORE]
    w = fit_beside((rest[rows] - mean) / scale, base[rows], g.y[rows], _dense(g.group[rows]))
    return base + ((rest - mean) / scale) @ w


def hits(g: Groups, scores: np.ndarray, test: np.ndarray) -> int:
    """Held-out groups whose best-scored candidate holds a gold phrase."""
    rows = test[g.group]
    return int(top1(scores[rows], g.y[rows], _dense(g.group[rows])).sum())


def fold_rows(g: Groups, fold: dict, inner: dict | None) -> dict[str, int]:
    """One fold's figures: each system's right-first count on its held-out groups."""
    keep = np.isin(g.sets, fold["fit"])
    test = ~keep
    own = network(fitted(g, keep, BESIDE), RANK_COLUMNS)(g.x)
    linear = linear_scores(g, g.x, keep)
    late = fold["scores"]
    column = np.where(keep[g.group], inner["scores"], late) if inner else late
    stacked = linear_scores(g, np.hstack([g.x, column[:, None]]), keep)
    return {
        "groups": int(test.sum()),
        "linear rank head (readers.fitted)": hits(g, own, test),
        "linear rank head (refit here)": hits(g, linear, test),
        "sentence head alone": hits(g, g.x[:, SCORE], test),
        "e5 cosine alone": hits(g, g.x[:, COSINE], test),
        "late cross-encoder alone": hits(g, late, test),
        "linear head + late score column": hits(g, stacked, test),
    }


def upper_encoder(fold: dict, template: Encoder) -> Encoder:
    """The package's numpy encoder holding the fold's trained upper layers."""
    fields = [f.name for f in dataclasses.fields(LayerWeights)]
    count = len({k.split(".")[0] for k in fold if k.startswith("l") and "." in k})
    layers = tuple(
        LayerWeights(**{n: np.ascontiguousarray(fold[f"l{k}.{n}"]) for n in fields})
        for k in range(count)
    )
    return Encoder(dataclasses.replace(template.weights, layers=layers))


def timed(encoder: Encoder, fold: dict, states: dict) -> float:
    """Median CPU ms to score ``CANDIDATES`` cached sentences of one question (float32)."""
    group = int(np.argmax(np.bincount(states["cand_group"])))  # the largest group
    cands = states["cands"][states["cand_group"] == group][:CANDIDATES]
    text = lambda n: states["states"][states["starts"][n] : states["ends"][n]]  # noqa: E731
    q = text(int(states["question"][group])).astype(np.float32) + fold["segment"][0]
    parts = [text(c).astype(np.float32) + fold["segment"][1] for c in cands]
    times = []
    for _ in range(REPEATS):
        clock = time.process_time()
        late_scores(encoder, fold, q, parts)
        times.append(time.process_time() - clock)
    return 1000 * float(np.median(times))


def late_scores(encoder: Encoder, fold: dict, q: np.ndarray, parts: list[np.ndarray]) -> np.ndarray:
    """The upper layers over ``[q ; part]`` rows, mean-pooled, the linear head."""
    width = len(q) + max(len(p) for p in parts)
    x = np.zeros((len(parts), width, q.shape[1]), np.float32)
    lengths = np.array([len(q) + len(p) for p in parts])
    for k, p in enumerate(parts):
        x[k, : len(q)], x[k, len(q) : lengths[k]] = q, p
    mask = np.arange(width)[None, :] < lengths[:, None]
    bias = np.where(mask, np.float32(0), np.float32(-1e30))[:, None, None, :]
    h = x.reshape(len(parts) * width, -1)
    for layer in encoder.weights.layers:
        h = encoder._layer(h, layer, bias, len(parts))
    pooled = (h.reshape(x.shape) * mask[:, :, None]).sum(1) / lengths[:, None]
    return pooled @ fold["head_w"] + fold["head_b"]


def inner_scores(files: str) -> dict:
    """One fold's out-of-sample scores of its own training groups: the sum of files that
    each scored the groups the other's model was trained on (0 elsewhere)."""
    return {"scores": sum(np.load(f)["scores"] for f in files.split(","))}


def parameters(fold: dict) -> int:
    return sum(int(v.size) for k, v in fold.items() if k not in ("scores", "fit"))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--groups", type=Path, required=True)
    parser.add_argument("--states", type=Path, required=True)
    parser.add_argument("--folds", type=Path, nargs="+", required=True)
    parser.add_argument("--inner", nargs="*", default=[], help="per fold: FILE,FILE")
    args = parser.parse_args()
    g: Groups = pickle.loads(args.groups.read_bytes())
    states = dict(np.load(args.states))
    assert np.array_equal(states["labels"], g.y) and np.array_equal(states["sets"], g.sets)
    folds = [dict(np.load(f)) for f in args.folds]
    inners = [inner_scores(f) for f in args.inner] or [None] * len(folds)
    figures = [fold_rows(g, f, i) for f, i in zip(folds, inners, strict=True)]
    heads = [f"held out: not {'/'.join(map(str, f['fit']))}" for f in folds]
    rows = [
        (name, *(str(r[name]) for r in figures), str(sum(r[name] for r in figures)))
        for name in figures[0]
    ]
    print(markdown_table(("system", *heads, "both"), "l" + "r" * (len(heads) + 1), rows))
    from askalong.config import load_settings
    from askalong.providers.local.e5.model import FastE5Embedder

    template = Encoder(FastE5Embedder(load_settings().home / "cache", engine="numpy").weights)
    ms = timed(upper_encoder(folds[0], template), folds[0], states)
    print(f"CPU ms, {CANDIDATES} candidates, upper layers float32 numpy: {ms:.1f}")
    print(f"trained parameters: {parameters(folds[0]):,}")


if __name__ == "__main__":
    main()
