"""Fit the passage model on ``passage_pairs.py``'s groups, print dev figures, write
``src/askalong/answer/scorer/passages.json``.

    PYTHONPATH=src python training/train_passages.py --pairs /work/data/scorer/passages.npz

Passage head: a softmax over each covered question's top retrieved passages (the gold
passage's share maximised), a linear model and a tanh network of ``train.HIDDEN`` units
fitted by ``train.py``'s full-batch Adam from its seed; the better on dev accuracy ships.
Answerable head: logistic regression over ``passages.passage_summary`` (covered: the
question over a library holding its article; not covered: over other articles only); its
threshold per language ("en", "zh") is the ``train.REFUSE_COVERED`` quantile of covered
DEV questions, unless ``--threshold LANG=P`` sets it: the training libraries are easier
than real documents, and the shipped thresholds are 0 (the head never refuses): on the
plain questions of the four never-seen dev sets (``benchmarks/unseen*``) it does not tell
covered from uncovered questions (training/README.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from askalong.answer.scorer.passages import PASSAGE_COLUMNS, PASSAGE_SUMMARY, passage_summary

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import (
    HIDDEN,
    REFUSE_COVERED,
    SEED,
    fit_logistic,
    fit_sentence,
    forward,
    spec,
    standardiser,
    starts_of,
    top1,
)

OUT = Path(__file__).resolve().parents[1] / "src/askalong/answer/scorer/passages.json"
PAIRS = Path("/work/data/scorer/passages.npz")


def fit_passages(d: dict[str, np.ndarray]) -> tuple[dict, np.ndarray]:
    """The passage head (the better of linear and ``HIDDEN`` units on dev) and its
    scores on every row."""
    x, y, group = d["x"], d["y"].astype(float), d["group"]
    row_split = d["split"][group]
    covered = d["covered"][group] == 1
    mean, scale = standardiser(x[row_split == "train"])
    xs = (x - mean) / scale
    best = None
    for hidden in (0, HIDDEN):
        tr = covered & (row_split == "train")
        params = fit_sentence(xs[tr], y[tr], group[tr], hidden, SEED)
        dv = covered & (row_split == "dev")
        acc = top1(forward(params, xs[dv])[0], y[dv], group[dv]).mean()
        fused = top1(x[dv][:, 0], y[dv], group[dv]).mean()  # fused_rank: the search's order
        print(f"hidden={hidden}: dev passage accuracy {acc:.3f} (search's top-1 {fused:.3f})")
        if best is None or acc > best[0]:
            best = (acc, params)
    params = best[1]
    return spec(PASSAGE_COLUMNS, mean, scale, params), forward(params, xs)[0]


def report_languages(d: dict[str, np.ndarray], scores: np.ndarray) -> None:
    """Dev top-1 accuracy per language: the model and the search's own top-1."""
    x, y, group = d["x"], d["y"], d["group"]
    for lang in sorted(set(d["language"])):
        chosen = (d["language"] == lang) & (d["split"] == "dev") & (d["covered"] == 1)
        keep = np.isin(group, np.flatnonzero(chosen))
        model = top1(scores[keep], y[keep], group[keep]).mean()
        search = top1(x[keep][:, 0], y[keep], group[keep]).mean()
        print(f"  {lang}: dev questions {chosen.sum()}: model {model:.3f} | search {search:.3f}")


def fit_answerable(d: dict[str, np.ndarray], scores: np.ndarray) -> tuple[dict, dict]:
    """The answerable head and its thresholds per language."""
    group, covered, split = d["group"], d["covered"], d["split"]
    starts = starts_of(group)
    ends = np.r_[starts[1:], len(group)]
    summary = np.stack(
        [passage_summary(d["x"][a:b], scores[a:b]) for a, b in zip(starts, ends, strict=True)]
    )
    train = split == "train"
    mean, scale = standardiser(summary[train])
    params = fit_logistic((summary[train] - mean) / scale, covered[train].astype(float), SEED)
    p = 1 / (1 + np.exp(-forward(params, (summary - mean) / scale)[0]))
    thresholds = {}
    zh = np.char.startswith(d["language"].astype(str), "zh")
    for lang, mine in (("en", ~zh), ("zh", zh)):
        dev = (split == "dev") & mine
        threshold = float(np.quantile(p[dev & (covered == 1)], REFUSE_COVERED))
        thresholds[lang] = round(threshold, 6)
        refused = [(p[dev & (covered == c)] < threshold).mean() for c in (1, 0)]
        print(
            f"  {lang}: threshold {threshold:.3f}: dev covered refused {refused[0]:.3f},"
            f" uncovered refused {refused[1]:.3f}"
        )
    return spec(PASSAGE_SUMMARY, mean, scale, params), thresholds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--threshold", action="append", default=[], help="LANG=P: a refusal threshold set"
    )
    args = parser.parse_args()
    d = dict(np.load(args.pairs))
    passage, scores = fit_passages(d)
    report_languages(d, scores)
    answerable, thresholds = fit_answerable(d, scores)
    thresholds |= dict(_threshold(t) for t in args.threshold)
    out = {"passage": passage, "answerable": answerable, "thresholds": thresholds}
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


def _threshold(setting: str) -> tuple[str, float]:
    language, _, value = setting.partition("=")
    return language, float(value)


if __name__ == "__main__":
    main()
