"""Fit the coverage model (an experiment: ``coverage_model.py``) on ``coverage_pairs.py``'s
groups, print dev figures, write ``training/coverage.json``.

    PYTHONPATH=src python training/coverage_train.py --pairs /work/data/refuse/coverage.npz \
        [--threshold embedded:en=0.3 ...]

Each group's candidates are scored by the shipped sentence head (``weights.json``), then
summarised (``coverage_model.coverage_features``); covered = the ``intact`` groups, not
covered = ``deleted`` (the answering sentences removed) and ``far`` (another article).
Per language ("en": SciFact and HotpotQA; "zh": CMRC and DRCD) and variant (with e5
vectors; lexical only, the cosines read 0), a logistic regression and a 16-unit tanh
network are fitted by full-batch Adam (seed 32); the better on the DEV split's log loss
is kept. The default threshold is the ``REFUSE_COVERED`` quantile of the covered DEV groups;
``--threshold`` sets one from the never-seen DEV sets (``benchmarks/refusals.py
sweep``), as the saved file was written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from askalong.answer.scorer.features import LEXICAL
from askalong.answer.scorer.model import shipped_scorer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from coverage_model import COVERAGE, WEIGHTS, coverage_features
from train import SEED, adam, backward, forward, init, spec, standardiser, starts_of

HIDDEN = 16
STEPS = 800
REFUSE_COVERED = 0.05
FAR_WEIGHT = 0.5  # the easy case counts half: the near misses are what readers meet


def summaries(x: np.ndarray, group: np.ndarray, embedded: bool) -> np.ndarray:
    """One ``COVERAGE`` row per group, its candidates scored by the shipped sentence head
    (without vectors: the embedded columns zeroed, the lexical head)."""
    scorer = shipped_scorer()
    seen = x.copy()
    if not embedded:
        seen[:, len(LEXICAL) :] = 0.0
    starts = starts_of(group)
    ends = np.r_[starts[1:], len(group)]
    out = []
    for a, b in zip(starts, ends, strict=True):
        scores = scorer.sentence_scores(seen[a:b], embedded)
        out.append(coverage_features(seen[a:b], scores))
    return np.stack(out)


def fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray, hidden: int) -> list[np.ndarray]:
    """Weighted logistic loss, full-batch Adam from ``SEED``."""
    rng = np.random.default_rng(SEED)
    total = weight.sum()

    def grad_fn(params):  # type: ignore[no-untyped-def]
        s, h = forward(params, x)
        p = 1 / (1 + np.exp(-s))
        loss = -np.sum(weight * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
        return loss / total, backward(params, x, h, weight * (p - y) / total)

    params, _ = adam(init(x.shape[1], hidden, rng), grad_fn, STEPS, lr=0.03)
    return params


def log_loss(p: np.ndarray, y: np.ndarray, weight: np.ndarray) -> float:
    losses = y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)
    return float(-np.sum(weight * losses) / weight.sum())


def chosen_model(
    summary: np.ndarray, y: np.ndarray, weight: np.ndarray, split: np.ndarray
) -> tuple[dict, np.ndarray]:
    """The better of a logistic and a tanh network on DEV log loss: its JSON form and its
    probability for every group."""
    train, dev = split == "train", split == "dev"
    mean, scale = standardiser(summary[train])
    xs = (summary - mean) / scale
    best = None
    for hidden in (0, HIDDEN):
        params = fit(xs[train], y[train], weight[train], hidden)
        p = 1 / (1 + np.exp(-forward(params, xs)[0]))
        loss = log_loss(p[dev], y[dev], weight[dev])
        print(f"    hidden={hidden}: dev log loss {loss:.4f}", flush=True)
        if best is None or loss < best[0]:
            best = (loss, spec(COVERAGE, mean, scale, params), p)
    assert best is not None
    return best[1], best[2]


def report(p: np.ndarray, threshold: float, case: np.ndarray, split: np.ndarray) -> str:
    dev = split == "dev"
    parts = [f"{c} refused {(p[dev & (case == c)] < threshold).mean():.3f}" for c in CASES]
    return f"threshold {threshold:.3f}: dev " + ", ".join(parts)


CASES = ("intact", "deleted", "far")


def given_thresholds(values: list[str]) -> dict[tuple[str, str], float]:
    """``variant:language=p`` arguments as a mapping."""
    out = {}
    for value in values:
        key, p = value.split("=")
        variant, language = key.split(":")
        out[(variant, language)] = float(p)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=Path("/work/data/refuse/coverage.npz"))
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--threshold", nargs="*", default=[], help="variant:language=p")
    args = parser.parse_args()
    d = np.load(args.pairs)
    given = given_thresholds(args.threshold)
    family = np.where(np.char.startswith(d["language"].astype(str), "zh"), "zh", "en")
    y = (d["case"] == "intact").astype(float)
    weight = np.where(d["case"] == "far", FAR_WEIGHT, 1.0)
    out: dict = {"networks": {}, "thresholds": {}}
    for variant in ("embedded", "lexical"):
        summary = summaries(d["x"], d["group"], variant == "embedded")
        out["networks"][variant], out["thresholds"][variant] = {}, {}
        for language in ("en", "zh"):
            mine = family == language
            print(f"  {variant} {language}: {mine.sum()} groups", flush=True)
            model, p = chosen_model(summary[mine], y[mine], weight[mine], d["split"][mine])
            covered_dev = p[(d["split"][mine] == "dev") & (y[mine] == 1)]
            default = float(np.quantile(covered_dev, REFUSE_COVERED))
            threshold = given.get((variant, language), default)
            out["networks"][variant][language] = model
            out["thresholds"][variant][language] = round(threshold, 6)
            print("    " + report(p, threshold, d["case"][mine], d["split"][mine]), flush=True)
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
