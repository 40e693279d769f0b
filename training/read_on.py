"""The read-on head (issue 32): whether the learned answerer's direct answer is the best
sentence with its pair (neighbour, runner-up) or the best sentence with what it leads
into (``extractive/read_on.py``), learned from readers' questions, not decided by cues.

Each covered plain question of the DEV recordings (``benchmarks/unseen_replay.py
record``) that the answerer answers is weighed again; where a read-on window is offered,
both answers are shaped as the product shows them and matched against the gold phrases.
The head is a logistic model over ``READ_ON`` fitted on the questions where exactly one of
the two holds the gold (the others teach nothing about which to show), pulled towards
zero (``PULL``); it reads on where its probability passes ``THRESHOLD``. ``cross`` leaves
each set out in turn and prints, per kind of question, the answers holding the gold with
the pair always, with the window always and with the head; ``fit`` writes
``weights.json``'s ``read_on`` head (the other heads kept). ``--cache`` keeps the
weighed examples between runs (weighing every set takes minutes).

    PYTHONPATH=src:benchmarks:training python training/read_on.py cross /work/data/rec/*.pkl
    PYTHONPATH=src:benchmarks:training python training/read_on.py fit /work/data/rec/*.pkl
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from reader_layers import FoldEmbedders, add_folds_argument
from readers import embedder_for
from rich.progress import track
from train import OUT, STEPS, adam, spec, standardiser, store_heads

from _table import markdown_table
from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.direct import joined
from askalong.answer.extractive.direct_choice import direct_choice
from askalong.answer.extractive.learned import answer_order, answered, weighed
from askalong.answer.scorer.features import READ_ON
from askalong.answer.scorer.model import shipped_scorer
from askalong.answer.shape import shaped
from unseen_set import DEV_SETS, contains_any, load_items, questions_of

# the L2 pull of the weights towards zero: a few hundred decisive questions (without it,
# each set left out: 1,140 answers holding the gold rather than 1,142)
PULL = 0.01
THRESHOLD = 0.7  # read on only where clearly more likely to hold the gold than the pair
KINDS = ("how", "factual", "why", "chinese")


@dataclass(frozen=True)
class Example:
    """One covered question answered: its set and kind, whether the pair and the window
    hold a gold phrase as shown, and the ``READ_ON`` row (None: no window offered)."""

    set: str
    kind: str
    pair_hit: bool
    window_hit: bool
    row: np.ndarray | None


def examples(paths: Sequence[Path], folds: Sequence[Path] = ()) -> list[Example]:
    """Every covered plain question of the recordings that the answerer answers (each
    set's reader encoder a fold model not trained on it, where ``folds`` are given)."""
    embedders, scorer = FoldEmbedders(embedder_for(False), folds), shipped_scorer()
    out = []
    for path in paths:
        data = pickle.loads(path.read_bytes())
        if data["set"] not in DEV_SETS:
            raise SystemExit(f"{data['set']} is held out")
        embedder = embedders.of(data["set"])
        for item in track(load_items(questions_of(data["set"])), description=data["set"]):
            r = data["requests"].get(item.id)
            if item.refuse or r is None or r.intent != "ask":
                continue
            w = weighed(r.question, r.units, scorer, embedder, r.hits)
            if answered(r.question, w, scorer, True).status != "answered":
                continue
            choice = direct_choice(r.question, w, answer_order(r.question, w))
            pair_hit = contains_any(_shown(choice.pair, r.question.language), item.gold)
            window = choice.window or choice.pair
            window_hit = contains_any(_shown(window, r.question.language), item.gold)
            out.append(Example(data["set"], item.kind, pair_hit, window_hit, choice.row))
    return out


def _shown(sentences: Sequence[Candidate], language: str) -> str:
    """The direct answer of ``sentences`` as the product shows it (shaped), unmarked."""
    marked = joined([f"{c.text} [{n}]" for n, c in enumerate(sentences, 1)], language)
    return shaped(marked).direct


def fitted(chosen: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The standardisation and logistic weights over ``READ_ON`` on the decisive examples
    (the window holds the gold and the pair not: 1; the reverse: 0)."""
    decisive = [e for e in chosen if e.row is not None and e.pair_hit != e.window_hit]
    x = np.array([e.row for e in decisive])
    y = np.array([e.window_hit for e in decisive], float)
    mean, scale = standardiser(x)
    z = (x - mean) / scale

    def grad_fn(params: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        w, b = params
        p = 1 / (1 + np.exp(-(z @ w + b)))
        loss = -float(np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))
        return loss + PULL * float(w @ w), [z.T @ (p - y) / len(y) + 2 * PULL * w, np.mean(p - y)]

    (w, b), _ = adam([np.zeros(x.shape[1]), np.zeros(())], grad_fn, STEPS)
    return mean, scale, w, float(b)


def _reads_on(e: Example, head: tuple[np.ndarray, np.ndarray, np.ndarray, float]) -> bool:
    if e.row is None:
        return False
    mean, scale, w, b = head
    return float(1 / (1 + np.exp(-(((e.row - mean) / scale) @ w + b)))) >= THRESHOLD


def cross(found: Sequence[Example]) -> None:
    """Leave one set out: per kind, the answers holding the gold with the pair, with the
    window wherever offered, and with the head fitted on the other sets."""
    headed: dict[int, bool] = {}
    for name in sorted({e.set for e in found}):
        head = fitted([e for e in found if e.set != name])
        headed |= {id(e): _reads_on(e, head) for e in found if e.set == name}
    rows = []
    for kind in (*KINDS, "all"):
        mine = [e for e in found if kind in ("all", e.kind)]
        read = [e for e in mine if headed[id(e)]]
        rows.append((
            kind, str(len(mine)), str(sum(e.row is not None for e in mine)),
            str(sum(e.pair_hit for e in mine)), str(sum(e.window_hit for e in mine)),
            str(sum(e.window_hit if headed[id(e)] else e.pair_hit for e in mine)),
            str(len(read)), str(sum(e.window_hit and not e.pair_hit for e in read)),
            str(sum(e.pair_hit and not e.window_hit for e in read)),
        ))  # fmt: skip
    header = (
        "kind", "answered", "window offered", "pair", "window always", "head",
        "head reads on", "gained", "lost",
    )  # fmt: skip
    print(markdown_table(header, "l" + "r" * (len(header) - 1), rows))


def fit(found: Sequence[Example], out: Path) -> None:
    """The head fitted on every set, written as ``out``'s embedded ``read_on`` head."""
    mean, scale, w, b = fitted(found)
    head = spec(READ_ON, mean, scale, [w[:, None], np.array([b])])
    print(dict(zip(READ_ON, np.round(w, 3), strict=True)), round(b, 3))
    store_heads(out, "embedded", read_on={**head, "threshold": THRESHOLD})


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross", "fit"))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cache", type=Path, help="the weighed examples, kept between runs")
    add_folds_argument(parser)
    args = parser.parse_args()
    if args.cache is not None and args.cache.exists():
        found = pickle.loads(args.cache.read_bytes())
    else:
        found = examples(args.recordings, args.reader_folds)
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(found))
    if args.verb == "cross":
        cross(found)
    else:
        fit(found, args.out)


if __name__ == "__main__":
    main()
