"""Fit the learned sentence scorer on ``prepare.py``'s pairs, print dev figures, write
``src/askalong/answer/scorer/weights.json``.

    PYTHONPATH=src python training/train.py --pairs /work/data/scorer/pairs.npz

Sentence head: a softmax over each covered question's candidates (the gold sentences'
share is maximised), a linear model and a tanh network of ``HIDDEN`` units fitted by
full-batch Adam from a fixed seed; the one with the better dev accuracy ships. Answerable
head: logistic regression over ``features.answerable_features`` (covered = the question
over its own article; not covered = over another article's best-matching paragraphs);
its threshold per language is the ``REFUSE_COVERED`` quantile of covered DEV questions.
Each in two variants: with e5 vectors ("embedded") and lexical only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from askalong.answer.scorer.features import ANSWERABLE, COLUMNS, LEXICAL, answerable_features

SEED = 32
HIDDEN = 16
STEPS = 600
FIRST = COLUMNS.index("first")
FIRST_EVERY = 6  # of the self-supervised groups answered by a first sentence, one kept
ACROSS_EVERY = 3  # one group in three also trained as a cross-lingual question
REFUSE_COVERED = 0.04  # share of covered dev questions refused at most (goal: <= 5 %)
OUT = Path(__file__).resolve().parents[1] / "src/askalong/answer/scorer/weights.json"
PAIRS = Path("/work/data/scorer/pairs.npz")
FIELDS = ("x", "y", "group", "language", "split", "covered", "refusal")


def joined(paths: list[Path], sentence_only: list[Path]) -> dict[str, np.ndarray]:
    """Several ``prepare.py`` outputs as one: each file's groups numbered after the last;
    ``refusal`` marks the groups the answerable head learns from (not ``sentence_only``'s:
    in one manual a far page often does answer a question about a term it names, so its
    "not covered" groups would teach the head to refuse answers)."""
    parts = [dict(np.load(path)) for path in paths]
    parts += [thinned(dict(np.load(path))) for path in sentence_only]
    offset = 0
    for k, part in enumerate(parts):
        part["refusal"] = np.full(len(part["covered"]), int(k < len(paths)), dtype=np.int8)
        part["group"] = part["group"] + offset
        offset += len(part["covered"])
    return {f: np.concatenate([part[f] for part in parts]) for f in FIELDS}


def thinned(part: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A self-supervised file with only one in ``FIRST_EVERY`` of its groups whose answer
    is a paragraph's first sentence (headings, definitions): all of them taught the
    model that the first sentence answers ("What loss is SPECTER trained with?" got the
    paper's opening sentence)."""
    group, n = part["group"], len(part["covered"])
    gold_first = np.zeros(n, dtype=bool)
    gold_first[group[(part["y"] == 1) & (part["x"][:, FIRST] == 1)]] = True
    kept = ~gold_first | (np.arange(n) % FIRST_EVERY == 0)
    rows = kept[group]
    renumber = np.cumsum(kept) - 1
    out = {f: part[f][rows] for f in ("x", "y")}
    out["group"] = renumber[group[rows]]
    return out | {f: part[f][kept] for f in ("language", "split", "covered")}


def with_across(d: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``d`` and a copy of every ``ACROSS_EVERY``-th group as if its question were in
    the other language (``across.py``), labelled "<that language>-across"."""
    from across import across_language, across_rows

    chosen = np.flatnonzero(np.arange(len(d["covered"])) % ACROSS_EVERY == 0)
    rows = np.isin(d["group"], chosen)
    renumber = np.full(len(d["covered"]), -1)
    renumber[chosen] = len(d["covered"]) + np.arange(len(chosen))
    copy = {
        "x": across_rows(d["x"][rows], d["language"][d["group"][rows]]),
        "y": d["y"][rows],
        "group": renumber[d["group"][rows]],
        "language": np.array([across_language(lang) for lang in d["language"][chosen]]),
        "split": d["split"][chosen],
        "covered": d["covered"][chosen],
        "refusal": d["refusal"][chosen],
    }
    return {f: np.concatenate([d[f], copy[f]]) for f in FIELDS}


def starts_of(group: np.ndarray) -> np.ndarray:
    """Index of each group's first row (groups are contiguous, numbered 0..)."""
    return np.flatnonzero(np.r_[True, group[1:] != group[:-1]])


def init(n_in: int, hidden: int, rng: np.random.Generator) -> list[np.ndarray]:
    if hidden == 0:
        return [np.zeros((n_in, 1)), np.zeros(1)]
    return [
        rng.normal(0, 1 / np.sqrt(n_in), (n_in, hidden)),
        np.zeros(hidden),
        rng.normal(0, 1 / np.sqrt(hidden), (hidden, 1)),
        np.zeros(1),
    ]


def forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    if len(params) == 2:
        return (x @ params[0] + params[1])[:, 0], None
    h = np.tanh(x @ params[0] + params[1])
    return (h @ params[2] + params[3])[:, 0], h


def backward(params, x, h, ds):  # type: ignore[no-untyped-def]
    if h is None:
        return [x.T @ ds[:, None], np.array([ds.sum()])]
    dh = ds[:, None] @ params[2].T * (1 - h**2)
    return [x.T @ dh, dh.sum(0), h.T @ ds[:, None], np.array([ds.sum()])]


def listwise_grad(s: np.ndarray, y: np.ndarray, starts: np.ndarray, group: np.ndarray):  # type: ignore[no-untyped-def]
    """Loss and d loss / d scores of -log(sum of the gold rows' softmax share), per group."""
    top = np.maximum.reduceat(s, starts)[group]
    e = np.exp(s - top)
    z = np.add.reduceat(e, starts)[group]
    p = e / z
    gold = np.add.reduceat(p * y, starts)
    q = p * y / gold[group]
    return -np.log(gold + 1e-12).mean(), (p - q) / len(starts)


def adam(params, grad_fn, steps: int, lr: float = 0.03, project=None):  # type: ignore[no-untyped-def]
    """Full-batch Adam; ``project`` (optional) maps the parameters back into their
    feasible set after each step (projected gradient: a sign constraint)."""
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for t in range(1, steps + 1):
        loss, grads = grad_fn(params)
        for k, g in enumerate(grads):
            g = g + 1e-4 * params[k]  # a little weight decay
            m[k] = 0.9 * m[k] + 0.1 * g
            v[k] = 0.999 * v[k] + 0.001 * g**2
            params[k] = params[k] - lr * (m[k] / (1 - 0.9**t)) / (
                np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8
            )
        if project is not None:
            params = project(params)
    return params, loss


def fit_sentence(x, y, group, hidden: int, seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    starts = starts_of(group)
    dense = np.searchsorted(starts, np.arange(len(group)), side="right") - 1

    def grad_fn(params):  # type: ignore[no-untyped-def]
        s, h = forward(params, x)
        loss, ds = listwise_grad(s, y, starts, dense)
        return loss, backward(params, x, h, ds)

    params, _ = adam(init(x.shape[1], hidden, rng), grad_fn, STEPS)
    return params


def fit_logistic(x, y, seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)

    def grad_fn(params):  # type: ignore[no-untyped-def]
        s, _ = forward(params, x)
        p = 1 / (1 + np.exp(-s))
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        return loss, backward(params, x, None, (p - y) / len(y))

    params, _ = adam(init(x.shape[1], 0, rng), grad_fn, STEPS, lr=0.05)
    return params


def top1(scores: np.ndarray, y: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Per group: whether its best-scored row is a gold one."""
    starts = starts_of(group)
    ends = np.r_[starts[1:], len(group)]
    return np.array(
        [y[a + int(np.argmax(scores[a:b]))] == 1 for a, b in zip(starts, ends, strict=True)]
    )


def standardiser(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return x.mean(0), np.where(x.std(0) > 1e-6, x.std(0), 1.0)


def spec(columns, mean, scale, params) -> dict:  # type: ignore[no-untyped-def]
    pairs = [(params[k], params[k + 1]) for k in range(0, len(params), 2)]
    r = lambda a: np.round(a, 6).tolist()  # noqa: E731
    return {
        "columns": list(columns),
        "mean": r(mean),
        "scale": r(scale),
        "layers": [{"w": r(w), "b": r(b)} for w, b in pairs],
    }


def store_heads(out: Path, variant: str, **heads: dict | None) -> None:
    """``out`` (a weights file) with each named head's ``variant`` set to its spec (None:
    removed), every other head and variant kept."""
    data = json.loads(out.read_text("utf-8"))
    for name, head in heads.items():
        if head is None:
            data.get(name, {}).pop(variant, None)
        else:
            data.setdefault(name, {})[variant] = head
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, nargs="+", default=[PAIRS])
    parser.add_argument("--sentence-pairs", type=Path, nargs="*", default=[])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    d = with_across(joined(args.pairs, args.sentence_pairs))
    x, y, group = d["x"], d["y"].astype(float), d["group"]
    language, covered = d["language"], d["covered"]
    row_cov = covered[group]
    has_gold = np.add.reduceat(y, starts_of(group)) > 0
    answerable_rows = row_cov.astype(bool) & has_gold[group]
    out: dict = {"sentence": {}, "answerable": {}, "thresholds": {}, "dev": {}}
    across = np.char.endswith(language.astype(str), "-across")
    for variant, names in (("embedded", COLUMNS), ("lexical", LEXICAL)):
        # Without vectors nothing ties a question to a sentence in another language:
        # the lexical variant neither learns from nor is measured on those groups.
        split = np.where(across & (variant == "lexical"), "unused", d["split"])
        row_split = split[group]
        cols = [COLUMNS.index(c) for c in names]
        mean, scale = standardiser(x[row_split == "train"][:, cols])
        xs = (x[:, cols] - mean) / scale
        best = None
        for hidden in (0, HIDDEN):
            tr = answerable_rows & (row_split == "train")
            params = fit_sentence(xs[tr], y[tr], group[tr], hidden, SEED)
            dv = answerable_rows & (row_split == "dev")
            s, _ = forward(params, xs[dv])
            acc = top1(s, y[dv], group[dv]).mean()
            print(f"{variant} hidden={hidden}: dev sentence accuracy {acc:.3f}", flush=True)
            if best is None or acc > best[0]:
                best = (acc, params, hidden)
        _, params, hidden = best
        out["sentence"][variant] = spec(names, mean, scale, params)
        scores, _ = forward(params, xs)
        report_sentences(variant, scores, y, group, language, split, covered, has_gold, x)
        seen = x.copy()
        seen[:, len(LEXICAL) :] *= variant == "embedded"  # no vectors: the cosines read 0
        refusal_split = np.where(d["refusal"] == 1, split, "unused")
        fit_answerable(variant, out, seen, scores, group, language, refusal_split, covered)
    if args.out.exists():  # the rank head is readers.py's: kept as it is
        out["rank"] = json.loads(args.out.read_text("utf-8")).get("rank", {})
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


def report_sentences(variant, scores, y, group, language, split, covered, has_gold, x) -> None:  # type: ignore[no-untyped-def]
    """Dev top-1 accuracy per language: the model, the best cosine, the best coverage."""
    cosine, coverage = x[:, COLUMNS.index("cosine")], x[:, COLUMNS.index("coverage")]
    for lang in sorted(set(language)):
        keep = np.isin(
            group, np.flatnonzero((language == lang) & (split == "dev") & (covered == 1) & has_gold)
        )
        if not keep.any():  # the lexical variant's cross-lingual groups: unused
            continue
        figures = [top1(v[keep], y[keep], group[keep]).mean() for v in (scores, cosine, coverage)]
        print(
            f"  {variant} {lang}: dev questions {len(starts_of(group[keep]))}:"
            f" model {figures[0]:.3f}"
            f" | best cosine {figures[1]:.3f} | best coverage {figures[2]:.3f}"
        )


def fit_answerable(variant, out, x, scores, group, language, split, covered) -> None:  # type: ignore[no-untyped-def]
    starts = starts_of(group)
    ends = np.r_[starts[1:], len(group)]
    summary = np.stack(
        [answerable_features(x[a:b], scores[a:b]) for a, b in zip(starts, ends, strict=True)]
    )
    train = split == "train"
    mean, scale = standardiser(summary[train])
    params = fit_logistic((summary[train] - mean) / scale, covered[train].astype(float), SEED)
    logit, _ = forward(params, (summary - mean) / scale)
    p = 1 / (1 + np.exp(-logit))
    out["answerable"][variant] = spec(ANSWERABLE, mean, scale, params)
    out["thresholds"][variant] = {}
    for lang, mine in threshold_groups(language):
        dev = (split == "dev") & mine
        if not (dev & (covered == 1)).any():
            continue
        threshold = float(np.quantile(p[dev & (covered == 1)], REFUSE_COVERED))
        out["thresholds"][variant][lang] = round(threshold, 6)
        for name in sorted(set(language[dev])):
            k = dev & (language == name)
            refused_cov = (p[k & (covered == 1)] < threshold).mean()
            refused_far = (p[k & (covered == 0)] < threshold).mean()
            print(
                f"  {variant} {name}: threshold {threshold:.3f}:"
                f" dev covered refused {refused_cov:.3f}"
                f", uncovered refused {refused_far:.3f}"
            )


def threshold_groups(language: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The scorer's threshold keys ("en", "zh", "en-across", "zh-across") and the groups
    of each (zh-Hans and zh-Hant share "zh")."""
    names = language.astype(str)
    across = np.char.endswith(names, "-across")
    zh = np.char.startswith(names, "zh")
    return [
        ("en", ~zh & ~across),
        ("zh", zh & ~across),
        ("en-across", ~zh & across),
        ("zh-across", zh & across),
    ]


if __name__ == "__main__":
    main()
