"""The learned answerer's refusal head (issue 32): "not covered" decided by a logistic
model fitted on readers' own questions and on public QA questions, not by a hand rule.

The answerable head (``train.py``) was fitted on public QA groups only: it tells a
question over its own paragraph from one over another article's (AUC ~1.0) but not a
reader's uncovered-but-plausible question from a covered one (AUC ~0.55 on the
never-seen sets), and its thresholds refused 8-10 % of covered XQuAD questions. This
head reads ``refusal_row.REFUSAL`` (the answerable head's summary and probability, the rank
head's best and margin, what the search knew of the best passage) for:

- readers' plain questions over the never-seen sets (``benchmarks/unseen*``, recorded by
  ``benchmarks/unseen_replay.py record``): covered, or marked ``refuse``;
- public DEV questions (CMRC, DRCD, HotpotQA dev buckets of ``splits.py``, as
  ``benchmarks/scorer.py`` builds them): over their paragraph and a neighbour (covered),
  and over two paragraphs of another article (not covered).

Uncovered rows are weighted up to the covered rows' total. The threshold is the
``REFUSE_COVERED`` quantile of the readers' covered questions' probabilities (the goal
allows 5 %). ``cross`` leaves each set out in turn (fit and threshold on the others) and
prints what it refuses of the held-out set; ``fit`` writes the head fitted on everything
as ``weights.json``'s embedded ``refusal`` (the other heads kept).

    PYTHONPATH=src:benchmarks:training python training/refusal.py cross /work/data/learn/unseen*.pkl
    PYTHONPATH=src:benchmarks:training python training/refusal.py fit /work/data/learn/unseen*.pkl
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from reader_layers import FoldEmbedders, add_folds_argument
from readers import embedder_for, recorded
from rich.progress import track
from train import OUT, STEPS, adam, spec, standardiser, store_heads

from _table import markdown_table
from askalong.answer.extractive.learned import weighed
from askalong.answer.scorer.model import network, shipped_scorer, variant
from askalong.answer.scorer.refusal_row import REFUSAL
from askalong.context.units import ContextUnit
from askalong.question.reading import QuestionReading, read_question
from askalong.types import Hit

REFUSE_COVERED = 0.03  # share of readers' covered questions refused (goal: at most 5 %)
PUBLIC = 200  # questions a public DEV set (each asked twice: covered and over another article)


@dataclass
class Rows:
    """One ``REFUSAL`` row a question: covered (1) or not (0), and the set it is from."""

    x: np.ndarray
    y: np.ndarray
    sets: np.ndarray

    @property
    def readers(self) -> np.ndarray:
        return np.array([not s.startswith("public") for s in self.sets])


def collected(paths: Sequence[Path], embedders: FoldEmbedders) -> Rows:
    """The readers' recorded plain questions (each set's reader encoder ``embedders.of``
    it), then the public DEV questions, as rows."""
    scorer = replace(shipped_scorer(), refusal={})  # the heads the refusal head reads
    xs, ys, sets = [], [], []

    def add(question: QuestionReading, units: Sequence[ContextUnit], hits: Sequence[Hit],
            covered: bool, name: str) -> None:  # fmt: skip
        row = weighed(question, units, scorer, embedders.of(name), hits).row
        if row is None:
            return
        xs.append(row)
        ys.append(float(covered))
        sets.append(name)

    for q in refusal_questions(paths):
        add(q.question, q.units, q.hits, q.covered, q.set)
    return Rows(np.array(xs), np.array(ys), np.array(sets))


@dataclass(frozen=True)
class RefusalQuestion:
    """A question the refusal head is fitted or measured on, with its evidence."""

    question: QuestionReading
    units: Sequence[ContextUnit]
    hits: Sequence[Hit]
    gold: Sequence[str]
    covered: bool
    set: str


def refusal_questions(paths: Sequence[Path]) -> Iterator[RefusalQuestion]:
    """The readers' recorded plain questions, then each public DEV question over its
    paragraph (covered) and over another article's (not covered)."""
    for a in track(recorded(paths), description="readers' questions"):
        r = a.request
        yield RefusalQuestion(r.question, r.units, r.hits, a.item.gold, not a.item.refuse, a.set)
    for name, cases in track(list(_public().items()), description="public DEV sets"):
        for case in cases:
            question = read_question(case.question)
            yield RefusalQuestion(question, _units(case.context), (), case.golds, True, name)
            yield RefusalQuestion(question, _units(case.far), (), (), False, name)


def _public() -> dict[str, list]:
    from scorer import DEV_SETS, dev_cases, hotpot_cases

    sets = {f"public {n}": dev_cases(n, files, PUBLIC) for n, files in DEV_SETS.values()}
    return sets | {"public hotpot": hotpot_cases(PUBLIC)}


def _units(texts: Sequence[str]) -> list[ContextUnit]:
    from extractive import units_of

    return units_of(texts, "retrieved")


def fitted(rows: Rows, keep: np.ndarray) -> dict:
    """The head's JSON spec fitted on the rows where ``keep``, with its threshold."""
    x, y = rows.x[keep], rows.y[keep]
    mean, scale = standardiser(x)
    z = (x - mean) / scale
    weight = np.where(y == 0, y.sum() / max(len(y) - y.sum(), 1), 1.0)

    def grad_fn(params: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        logit = z @ params[0] + params[1]
        p = 1.0 / (1.0 + np.exp(-logit))
        loss = -np.mean(weight * (y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))
        d = weight * (p - y) / len(y)
        return float(loss), [z.T @ d, np.array([d.sum()])]

    (w, b), _ = adam([np.zeros(z.shape[1]), np.zeros(1)], grad_fn, STEPS * 3)
    head = spec(REFUSAL, mean, scale, [w[:, None], b])
    covered = (keep & rows.readers)[keep] & (y == 1)
    logits = z[covered] @ w + b[0]
    head["threshold"] = round(float(_sigmoid(np.quantile(logits, REFUSE_COVERED))), 6)
    return head


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def cross(
    paths: Sequence[Path], cache: Path | None, lexical: bool = False, folds: Sequence[Path] = ()
) -> None:
    """Leave one set out: fit on the others, refuse that set's questions; prints what is
    refused of each held-out set, covered and not."""
    rows = _rows(paths, cache, lexical, folds)
    table = []
    for name in sorted(set(rows.sets)):
        head = fitted(rows, rows.sets != name)
        mine = rows.sets == name
        probability = _sigmoid(network(head, REFUSAL)(rows.x[mine]))
        refused = probability < head["threshold"]
        y = rows.y[mine]
        table.append(
            (name, f"{int((refused & (y == 1)).sum())} / {int((y == 1).sum())}",
             f"{int((refused & (y == 0)).sum())} / {int((y == 0).sum())}")
        )  # fmt: skip
    print(markdown_table(("held-out set", "covered refused", "not covered refused"), "lrr", table))


def fit(
    paths: Sequence[Path],
    out: Path,
    cache: Path | None,
    lexical: bool = False,
    folds: Sequence[Path] = (),
) -> None:
    """The head fitted on every set, written as ``out``'s refusal head of the variant."""
    rows = _rows(paths, cache, lexical, folds)
    head = fitted(rows, np.ones(len(rows.y), dtype=bool))
    store_heads(out, variant(embedded=not lexical), refusal=head)
    print(f"{len(rows.y)} questions ({int(rows.readers.sum())} readers') -> {out}")


def _rows(
    paths: Sequence[Path], cache: Path | None, lexical: bool, folds: Sequence[Path] = ()
) -> Rows:
    """The collected rows, read from ``cache`` when it exists (else written there; as
    ``.npz``, the suffix numpy would add)."""
    cache = cache.with_suffix(".npz") if cache is not None else None
    if cache is not None and cache.exists():
        data = np.load(cache)
        return Rows(data["x"], data["y"], data["sets"])
    rows = collected(paths, FoldEmbedders(embedder_for(lexical), () if lexical else folds))
    if cache is not None:
        np.savez(cache, x=rows.x, y=rows.y, sets=rows.sets)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross", "fit"))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cache", type=Path, help="the collected rows, kept between runs")
    parser.add_argument("--lexical", action="store_true", help="the variant without vectors")
    add_folds_argument(parser)
    args = parser.parse_args()
    if args.verb == "cross":
        cross(args.recordings, args.cache, args.lexical, args.reader_folds)
    else:
        fit(args.recordings, args.out, args.cache, args.lexical, args.reader_folds)


if __name__ == "__main__":
    main()
