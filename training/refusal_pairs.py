"""An experiment (issue 32): the refusal head reading the question and its best sentences as
a pair, in the reader encoder's space, not only through summary columns.

The refusal head (``refusal.py``) reads one cosine per question (the best hit's) and
summaries of the candidates' scores; a reader's uncovered-but-plausible question is as close
to the document's topic as a covered one, so a single cosine cannot tell them apart. Here a
model reads, per candidate, the elementwise product and difference of the question's and the
sentence's reader vectors (which dimensions agree, not only how much) and pools the
candidates (log-sum-exp, multiple-instance: a question is covered when one of its sentences
answers it). Its out-of-sample logit becomes one more column beside ``REFUSAL``, and the
logistic head is refitted leaving each set out, beside the same head without it.

    PYTHONPATH=src:benchmarks:training python training/refusal_pairs.py collect \
        $(cat /work/data/s49/recs) --reader-folds bi-a-l4.npz bi-b-l4.npz --out pairs.npz
    PYTHONPATH=src:benchmarks:training python training/refusal_pairs.py cross --pairs pairs.npz
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from reader_layers import FoldEmbedders, add_folds_argument
from readers import embedder_for
from refusal import REFUSE_COVERED, refusal_questions
from rich.progress import track

from _table import markdown_table
from askalong.answer.extractive.learned import weighed
from askalong.answer.scorer.model import shipped_scorer
from unseen_set import contains_any

TOP = 4  # candidates a question is read with, in the rank head's order


def collect(paths: Sequence[Path], folds: Sequence[Path], out: Path) -> None:
    """Per question (readers' recorded plain ones, then the public DEV ones over their
    paragraph and another article's): the ``REFUSAL`` row, the question's reader vector,
    its ``TOP`` best candidates' vectors and which hold a gold phrase."""
    embedders = FoldEmbedders(embedder_for(False), folds)
    scorer = replace(shipped_scorer(), refusal={})
    rows: dict[str, list] = {k: [] for k in ("x", "y", "sets", "q", "s", "mask", "gold")}

    def add(question, units, hits, gold, covered, name) -> None:  # type: ignore[no-untyped-def]
        embedder = embedders.of(name)
        w = weighed(question, units, scorer, embedder, hits)
        if w.row is None or embedder is None:
            return
        reader = embedder.reader() or embedder
        order = np.argsort(-w.ranks, kind="stable")[:TOP]
        texts = [w.found[i].text for i in order]
        vectors = np.zeros((TOP, embedder.dimension), dtype=np.float32)
        vectors[: len(texts)] = reader.embed_passages(texts)
        mask = np.arange(TOP) < len(texts)
        held = [bool(gold) and contains_any(t, gold) for t in texts] + [False] * (TOP - len(texts))
        for key, value in (("x", w.row), ("y", float(covered)), ("sets", name),
                           ("q", reader.embed_query(question.text)), ("s", vectors),
                           ("mask", mask), ("gold", held)):  # fmt: skip
            rows[key].append(value)

    for q in refusal_questions(paths):
        add(q.question, q.units, q.hits, q.gold, q.covered, q.set)
    np.savez(out, **{k: np.array(v) for k, v in rows.items()})
    print(f"{len(rows['y'])} questions -> {out}")


def _pair_inputs(q: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per candidate: the product and the absolute difference of the two vectors."""
    qq = np.broadcast_to(q[:, None, :], s.shape)
    return np.concatenate([qq * s, np.abs(qq - s)], axis=-1)


def pair_logits(data: dict, train: np.ndarray, l2: float, steps: int = 400) -> np.ndarray:
    """The pooled pair model fitted on the ``train`` questions: every question's logit."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(32)
    inputs = torch.tensor(_pair_inputs(data["q"], data["s"]))
    mask = torch.tensor(data["mask"])
    y = torch.tensor(data["y"], dtype=torch.float32)
    weight = torch.tensor(_balanced(data["y"]), dtype=torch.float32)
    linear = torch.nn.Linear(inputs.shape[-1], 1)
    optimiser = torch.optim.Adam(linear.parameters(), lr=0.01)
    rows = torch.tensor(train)

    def pooled(idx: torch.Tensor) -> torch.Tensor:
        scores = linear(inputs[idx]).squeeze(-1).masked_fill(~mask[idx], -1e4)
        return torch.logsumexp(scores, dim=1)

    for _ in range(steps):
        optimiser.zero_grad()
        loss = (
            torch.nn.functional.binary_cross_entropy_with_logits(
                pooled(rows), y[rows], weight=weight[rows]
            )
            + l2 * linear.weight.pow(2).sum()
        )
        loss.backward()
        optimiser.step()
    with torch.no_grad():
        return pooled(torch.arange(len(y))).numpy()


def _balanced(y: np.ndarray) -> np.ndarray:
    return np.where(y == 0, y.sum() / max(len(y) - y.sum(), 1), 1.0)


def logistic(x: np.ndarray, y: np.ndarray, steps: int = 600) -> tuple[np.ndarray, float]:
    """Weights of a class-balanced logistic regression on standardised ``x``."""
    import torch

    z = torch.tensor(x, dtype=torch.float32)
    t = torch.tensor(y, dtype=torch.float32)
    w = torch.zeros(x.shape[1], requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    weight = torch.tensor(_balanced(y), dtype=torch.float32)
    optimiser = torch.optim.Adam([w, b], lr=0.05)
    for _ in range(steps):
        optimiser.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(z @ w + b, t, weight=weight)
        loss.backward()
        optimiser.step()
    return w.detach().numpy(), float(b.detach()[0])


def refused(x: np.ndarray, y: np.ndarray, readers: np.ndarray, held: np.ndarray) -> np.ndarray:
    """The held-out rows refused by a head fitted on the others, its threshold the
    ``REFUSE_COVERED`` quantile of the other sets' readers' covered questions."""
    keep = ~held
    mean, scale = x[keep].mean(0), x[keep].std(0) + 1e-6
    z = (x - mean) / scale
    w, b = logistic(z[keep], y[keep])
    logit = z @ w + b
    threshold = np.quantile(logit[keep & readers & (y == 1)], REFUSE_COVERED)
    return held & (logit < threshold)


def cross(pairs: Path, l2: float, readers_only: bool = False) -> None:
    """Leave each readers' set out: the refusal head with and without the pair column."""
    with np.load(pairs) as f:
        data = {k: f[k] for k in f.files}
    sets, y = data["sets"], data["y"]
    readers = np.array([not s.startswith("public") for s in sets])
    column = np.zeros(len(y))
    names = sorted(set(sets[readers]))
    taught = readers if readers_only else np.ones(len(y), dtype=bool)
    for name in track(names, description="pair model, each set left out"):
        held = sets == name
        column[held] = pair_logits(data, np.flatnonzero(~held & taught), l2)[held]
    publics = sorted(set(sets[~readers]))
    column[~readers] = pair_logits(data, np.flatnonzero(readers), l2)[~readers]
    table, totals = [], np.zeros(4, dtype=int)
    for name in names + publics:
        held = sets == name
        before = refused(data["x"], y, readers, held)
        after = refused(np.hstack([data["x"], column[:, None]]), y, readers, held)
        counts = [int((r & held & (y == k)).sum()) for r in (before, after) for k in (1, 0)]
        if name in names:
            totals += counts
        n1, n0 = int((held & (y == 1)).sum()), int((held & (y == 0)).sum())
        table.append((name, *_shares(counts, (n1, n0))))
    n1, n0 = int((readers & (y == 1)).sum()), int((readers & (y == 0)).sum())
    table.append(("readers", *_shares(totals, (n1, n0))))
    head = ("held-out set", "covered refused", "uncovered refused",
            "with pairs: covered", "with pairs: uncovered")  # fmt: skip
    print(markdown_table(head, "lrrrr", table))
    auc = _auc(column[readers], y[readers])
    print(f"pair column alone, readers' questions out of sample: AUC {auc:.3f}")


def _shares(counts: Sequence[int], of: tuple[int, int]) -> list[str]:
    """Refused covered and uncovered, before and after, each of its total."""
    return [f"{c} / {n}" for c, n in zip(counts, of * 2, strict=True)]


def _auc(score: np.ndarray, y: np.ndarray) -> float:
    pos, neg = score[y == 1], score[y == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("collect", "cross"))
    parser.add_argument("recordings", type=Path, nargs="*")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--pairs", type=Path)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--readers-only", action="store_true", help="the pair model: readers' rows")
    add_folds_argument(parser)
    args = parser.parse_args()
    if args.verb == "collect":
        collect(args.recordings, args.reader_folds, args.out)
    else:
        cross(args.pairs, args.l2, args.readers_only)


if __name__ == "__main__":
    main()
