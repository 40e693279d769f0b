"""A learned ranker of code lines for a question (issue 32 item 4), an experiment: fitted on
the never-seen DEV sets' code items and measured by leaving one set out, against the hand
rules that order the lines an answer over code quotes (``askalong.asking.code_answers``:
BM25 of the line times the subject's own / a literal for a value asked). Not wired into
the product: it did not beat the rules (``README.md``, "Code lines").

    PYTHONPATH=src python training/code_lines.py collect   # the (question, line) rows
    PYTHONPATH=src python training/code_lines.py fit       # one fold per set left out
    PYTHONPATH=src python training/code_lines.py measure --rules RULES.json

``collect`` asks every item of kind ``code`` of each DEV set (``unseen_set.DEV_SETS``,
never the held-out ones) through the product's own path (``benchmarks/code_answers_unseen``'s
child, one process per set) and records, each time the best lines are chosen
(``code_answers._best_lines``), the features (``code_line_features``) of every line of the
evidence and its label: whether the line, with the lines it brings into the answer
(``code_company``: its condition, the comment above it, the block it opens), holds a gold
phrase. ``fit`` fits a linear score with a softmax over each question's candidate lines
(those holding a term of the question, as the rules' are; ``--all-lines``: every line),
maximising the mass on the labelled lines (any of them first will do), with an L2 pull
towards the rules written as weights (a linear ranker holds them as a special case), once
per set left out (``CACHE/folds``). ``measure`` answers each set with the fold fitted
without it, beside the rules' rows (``benchmarks/code_answers_unseen.py --kinds code
--rows``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_line_features import FEATURES, line_features  # noqa: E402

from unseen_set import DEV_SETS  # noqa: E402

CACHE = Path(os.environ.get("ASKALONG_TRAINING_CACHE", "/tmp/askalong-code-lines"))
NO_TERM = FEATURES.index("no_term")
ALL_LINES = "ASKALONG_CODE_LINES_ALL"  # set: every line a candidate (passed to the children)
L2_GRID = (0.1, 1.0, 10.0, 100.0)  # the pull towards the rules, on standardised weights
BEST = 3  # the best lines whose labels ``fit`` prints (their company fills the eight)


def collect_child(name: str, out: Path) -> None:
    """Set ``name``'s code items asked; every choice's features and labels to ``out``,
    with the question, BM25's order and the reader encoder's cosine of each line
    ``code_meaning`` would encode (``cosines``: candidate index -> cosine)."""
    import code_answers_unseen
    import unseen
    from answers import contains_any
    from askalong.asking import code_answers, code_meaning

    groups: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    asking, choosing = unseen.ask_one, code_answers._best_lines
    embedder = _reader_embedder()

    def ask_one(library: Any, asker: Any, doc_ids: Any, item: Any, threads: Any) -> Any:
        current["item"] = item
        return asking(library, asker, doc_ids, item, threads)

    def recorded(lines: Any, asked: Any, worded: Any, own: Any, _embedder: Any) -> Any:
        rows = line_features(lines, _indexes(lines, own), asked)
        item = current["item"]
        labels = [contains_any(_brought(lines, line), item.gold) for line in lines]
        order = [lines.index(ln) for ln in worded]
        candidates = list(dict.fromkeys([*_indexes_ordered(lines, own), *order]))
        texts = [code_meaning.line_context(lines, lines[i]) for i in candidates]
        cosines = reader_cosines(asked.text, texts, embedder).tolist()
        variants = {}
        for variant, read in CONTEXTS.items() if os.environ.get(VARIANTS) else ():
            said = [read(lines, lines[i]) for i in candidates]
            variants[variant] = reader_cosines(asked.text, said, embedder).tolist()
        groups.append(
            {
                "id": item.id,
                "question": asked.text,
                "rows": rows.tolist(),
                "labels": labels,
                "bm25_order": order,
                "own": _indexes_ordered(lines, own),
                "cosines": dict(zip(map(str, candidates), cosines, strict=True)),
                "variants": {
                    v: dict(zip(map(str, candidates), c, strict=True)) for v, c in variants.items()
                },
            }
        )
        return choosing(lines, asked, worded, own, None)

    from askalong.answer.extractive.reader_cosine import reader_cosines

    unseen.ask_one = ask_one
    code_answers._best_lines = recorded
    code_answers_unseen.child(name, ["code"], Path(tempfile.mkstemp(suffix=".json")[1]), False)
    out.write_text(json.dumps(groups), encoding="utf-8")


def _alone(lines: list[Any], line: Any) -> str:
    return str(line.text.strip())


def _window(lines: list[Any], line: Any) -> str:
    index = lines.index(line)
    near = lines[max(index - 1, 0) : index + 2]
    return "\n".join(ln.text.strip() for ln in near if ln.unit == line.unit)


def _named(lines: list[Any], line: Any) -> str:
    from askalong.asking.code_meaning import line_context

    head = next((ln for ln in lines if ln.unit == line.unit and not ln.comment), line)
    said = line_context(lines, line)
    return said if head is line else f"{head.text.strip()}\n{said}"


def _reader_embedder() -> Any:
    """The bundled embedder (its reader encoder beside it), its graphs cached under
    ``CACHE/home``."""
    from askalong.providers.choose import make_embedder
    from askalong.settings import Settings

    return make_embedder(Settings(home=CACHE / "home", embedder="local"))


def _indexes_ordered(lines: Sequence[Any], own: Sequence[Any]) -> list[int]:
    mine = {line.span for line in own}
    return [i for i, line in enumerate(lines) if line.span in mine]


def _indexes(lines: Sequence[Any], own: Sequence[Any]) -> set[int]:
    mine = {line.span for line in own}
    return {i for i, line in enumerate(lines) if line.span in mine}


def _brought(lines: list[Any], line: Any) -> str:
    """A picked line's text with the lines it brings into the answer (the condition it
    runs under, the comment above it, the block it opens, the code a comment heads): a
    line is a good pick when what it brings answers."""
    from askalong.asking.code_company import governing, headed, opened, said_above

    around = (*governing(lines, line), *said_above(lines, line), line)
    return "\n".join(ln.text for ln in (*around, *opened(lines, line), *headed(lines, line)))


# Other readings of a line for the encoder, each measured beside ``line_context``'s
# (``code_line_meaning.py --variant``), when ``VARIANTS`` is set.
CONTEXTS = {"alone": _alone, "window": _window, "named": _named, "brought": _brought}
VARIANTS = "ASKALONG_CODE_LINES_VARIANTS"


def scores(weights: dict[str, Any], rows: np.ndarray) -> np.ndarray:
    """The linear ranker: standardised columns, one weight each."""
    w, mean, scale = (np.array(weights[k]) for k in ("weights", "mean", "scale"))
    return np.asarray(((rows - mean) / scale) @ w)


def candidates(rows: np.ndarray) -> np.ndarray:
    """The lines the ranker chooses among: those holding a term of the question (as the
    rules'), or every line when ``ALL_LINES`` is set."""
    return (rows[:, NO_TERM] == 0) | bool(os.environ.get(ALL_LINES))


def measure_child(name: str, weights_file: Path, out: Path) -> None:
    """Set ``name``'s code items answered with the ranker of ``weights_file``."""
    import code_answers_unseen
    from askalong.asking import code_answers

    weights = json.loads(weights_file.read_text("utf-8"))

    def learned(lines: Any, asked: Any, _worded: Any, own: Any, _embedder: Any) -> Any:
        rows = line_features(lines, _indexes(lines, own), asked)
        score = scores(weights, rows)
        among = np.flatnonzero(candidates(rows)).tolist() if len(rows) else []
        order = sorted(among, key=lambda i: (-score[i], i))
        return [lines[i] for i in order[: code_answers.MAX_LINES]]

    code_answers._best_lines = learned
    code_answers_unseen.child(name, ["code"], out, False)


def _in_child(*arguments: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, __file__, *arguments], env=env, check=True)


def collect(sets: Sequence[str]) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    for name in sets:
        _in_child("collect-child", name, str(CACHE / f"{name}.json"))


def load(name: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """Set ``name``'s groups that teach: some candidate line brings a gold phrase (the
    first choice of each item)."""
    groups = json.loads((CACHE / f"{name}.json").read_text("utf-8"))
    seen: set[str] = set()
    out = []
    for g in groups:
        if g["id"] in seen or not any(g["labels"]) or not g["rows"]:
            continue
        seen.add(g["id"])
        rows, labels = np.array(g["rows"]), np.array(g["labels"], dtype=np.float64)
        holding = candidates(rows)
        if labels[holding].any():
            out.append((rows[holding], labels[holding]))
    return out


def fit(
    groups: Sequence[tuple[np.ndarray, np.ndarray]],
    l2: float,
    extra: Sequence[str] = (),
    extra_prior: Sequence[float] = (),
) -> dict[str, Any]:
    """Softmax over each group's lines, the gold lines sharing the target, L2 on the
    standardised weights; L-BFGS (a few dozen columns). ``extra``: columns after
    ``FEATURES`` (``code_line_meaning``'s), pulled towards ``extra_prior`` (raw units)."""
    stacked = np.vstack([rows for rows, _ in groups])
    mean = stacked.mean(axis=0)
    scale = stacked.std(axis=0)
    scale[scale == 0] = 1.0
    x = (stacked - mean) / scale
    gold = np.concatenate([labels > 0 for _, labels in groups])
    group = np.concatenate([np.full(len(rows), k) for k, (rows, _) in enumerate(groups)])
    prior = np.concatenate([rules_weights(), extra_prior]) * scale  # standardised units
    start = prior.copy()
    args = (x, gold, group, prior, l2)
    w = minimize(_loss, start, args, jac=True, method="L-BFGS-B").x
    return {
        "features": [*FEATURES, *extra],
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "weights": w.tolist(),
    }


def rules_weights() -> np.ndarray:
    """The hand rules as weights of the raw columns (``code_answers``' BM25 times 1/0.6
    for the subject's own lines, times 1.5 for a literal when a value is asked: a sum of
    logarithms), which a linear ranker holds as a special case: the prior it is fitted
    towards, so that what few groups there are move it only where they agree."""
    rules = {
        "log_bm25": 1.0,
        "own": math.log(1 / 0.6),
        "no_subject": math.log(1 / 0.6),
        "value_asked_literal": math.log(1.5),
    }
    return np.array([rules.get(name, 0.0) for name in FEATURES])


def _loss(
    w: np.ndarray,
    x: np.ndarray,
    gold: np.ndarray,
    group: np.ndarray,
    prior: np.ndarray,
    l2: float,
) -> tuple[float, np.ndarray]:
    """Mean over groups of -log of the softmax mass on the gold lines (any of them first
    will do), L2 towards the rules' weights; with its gradient."""
    z = x @ w
    top = np.full(group.max() + 1, -np.inf)
    np.maximum.at(top, group, z)
    e = np.exp(z - top[group])
    total = np.bincount(group, e)
    on_gold = np.bincount(group, e * gold)
    n = len(total)
    off = w - prior
    loss = float(np.mean(np.log(total) - np.log(on_gold))) + l2 * float(off @ off) / 2
    p = e / total[group]
    target = np.where(gold, e / on_gold[group], 0.0)
    grad = x.T @ (p - target) / n + l2 * off
    return loss, grad


def top_hits(weights: dict[str, Any], groups: Sequence[tuple[np.ndarray, np.ndarray]]) -> int:
    """Groups where a labelled line is among the best ``BEST`` of the weights' order."""
    hits = 0
    for rows, labels in groups:
        score = scores(weights, rows)
        order = sorted(range(len(rows)), key=lambda i: (-score[i], i))[:BEST]
        hits += bool(labels[order].any())
    return hits


def chosen_l2(data: dict[str, list[tuple[np.ndarray, np.ndarray]]]) -> float:
    """The pull towards the rules whose fits, each set of ``data`` left out in turn, rank
    a labelled line among the best ``BEST`` most often on the set left out (ties: the
    stronger pull, nearer the rules)."""
    names = list(data)

    def hits(l2: float) -> int:
        folds = (([g for o in names if o != n for g in data[o]], data[n]) for n in names)
        return sum(top_hits(fit(train, l2), held) for train, held in folds)

    return max(reversed(L2_GRID), key=hits)


def fit_all(sets: Sequence[str], l2: float | None) -> None:
    """One fold per set left out (``CACHE/folds``), its pull towards the rules chosen
    inside the fold (``chosen_l2`` over the other sets, unless ``l2`` is given), each
    printed with how often it ranks a labelled line among the best ``BEST`` on its set
    against the rules."""
    data = {name: load(name) for name in sets}
    (CACHE / "folds").mkdir(parents=True, exist_ok=True)
    rules = {"features": list(FEATURES), "weights": rules_weights().tolist()}
    rules |= {"mean": [0.0] * len(FEATURES), "scale": [1.0] * len(FEATURES)}
    print(f"| left out | groups | L2 | labelled line in the best {BEST}: fold | rules |")
    print("|---|---:|---:|---:|---:|")
    for name in sets:
        train = {other: data[other] for other in sets if other != name}
        pull = l2 if l2 is not None else chosen_l2(train)
        weights = fit([g for groups in train.values() for g in groups], pull)
        (CACHE / "folds" / f"{name}.json").write_text(json.dumps(weights), encoding="utf-8")
        hits, base = top_hits(weights, data[name]), top_hits(rules, data[name])
        print(f"| {name} | {len(data[name])} | {pull:g} | {hits} | {base} |")
    pull = l2 if l2 is not None else chosen_l2(data)
    weights = fit([g for name in sets for g in data[name]], pull)
    (CACHE / "all.json").write_text(json.dumps(weights), encoding="utf-8")
    for feature, w in zip(weights["features"], weights["weights"], strict=True):
        print(f"{feature:>20} {w:+.3f} (fitted on every set, L2 {pull:g}, standardised)")


def measure(sets: Sequence[str], rules: Path | None, rows_out: Path | None) -> None:
    """Each set answered with the fold fitted without it; answer hit per set."""
    rows: list[dict[str, Any]] = []
    for name in sets:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            _in_child("measure-child", name, str(CACHE / "folds" / f"{name}.json"), out.name)
            rows += json.loads(Path(out.name).read_text("utf-8"))
    before = json.loads(rules.read_text("utf-8"))["this checkout"] if rules else []
    print("| set | rules | learned (set left out) | bm25p |")
    print("|---|---:|---:|---:|")
    for name in [*sets, "all"]:
        now = [r for r in rows if name in ("all", r["set"]) and r["covered"]]
        old = [r for r in before if name in ("all", r["set"]) and r["covered"]]
        hit = sum(r["answer_hit"] for r in now)
        was = sum(r["answer_hit"] for r in old)
        bm25p = sum(r["bm25p"] for r in now)
        print(f"| {name} | {was}/{len(old)} | {hit}/{len(now)} | {bm25p}/{len(now)} |")
    if rows_out:
        rows_out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    steps = ("collect", "fit", "measure", "collect-child", "measure-child")
    parser.add_argument("step", choices=steps)
    parser.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--sets", nargs="+", choices=DEV_SETS, default=list(DEV_SETS))
    parser.add_argument("--l2", type=float, help="the pull towards the rules (else chosen)")
    parser.add_argument("--all-lines", action="store_true", help="every line a candidate")
    parser.add_argument("--rules", type=Path, help="the rules' rows (code_answers_unseen --rows)")
    parser.add_argument("--rows", type=Path, help="write the learned answers' rows here")
    args = parser.parse_args()
    if args.all_lines:
        os.environ[ALL_LINES] = "1"
    if args.step == "collect-child":
        collect_child(args.args[0], Path(args.args[1]))
    elif args.step == "measure-child":
        measure_child(args.args[0], Path(args.args[1]), Path(args.args[2]))
    elif args.step == "collect":
        collect(args.sets)
    elif args.step == "fit":
        fit_all(args.sets, args.l2)
    else:
        measure(args.sets, args.rules, args.rows)


if __name__ == "__main__":
    main()
