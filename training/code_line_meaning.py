"""Code lines by meaning, measured offline (issue 32): how often a line bringing a gold
phrase is among the first ``BEST`` lines of each order, BM25's (the rules'), the reader
encoder's cosine alone, and their fusions by reciprocal rank (plain, weighted, over
fewer lines read, over other readings of a line: ``--variants``) or by a linear ranker
(``--learned``), on the groups ``code_lines.py collect`` recorded (each item's first
choice of lines, with its candidates' cosines), per half of the DEV sets (misses read on
one, changes checked on the other), with a fusion weight chosen leaving one set out.
A first look only: the rank of a line is not the answer (its room, the lines each line
brings); ``code_line_replay.py`` measures orders as answers, and chose the product's.

    PYTHONPATH=src python training/code_lines.py collect
    PYTHONPATH=src python training/code_line_meaning.py [--best 3] [--caps] [--learned 1]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from code_lines import CACHE, CONTEXTS, fit, scores

from askalong.asking.code_meaning import CANDIDATES, WORDS_FIRST, encoded
from unseen_set import DEV_SETS

BEST = 3
RRF_K = 60  # reciprocal rank fusion's constant (Cormack, Clarke and Büttcher 2009)
READ = DEV_SETS[::2]  # the half whose misses are read: `unseen`, 3, 5, … (checked: the rest)
CAPS = (8, 16, 24, 32, 64, 1000)  # lines encoded, at most
WEIGHTS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)  # the cosine order's, against BM25's 1

Order = Callable[[dict[str, Any]], list[int]]


def groups(name: str) -> list[dict[str, Any]]:
    """Set ``name``'s first choice per item, where some line brings a gold phrase."""
    seen: set[str] = set()
    out = []
    for group in json.loads((CACHE / f"{name}.json").read_text("utf-8")):
        if group["id"] not in seen and any(group["labels"]):
            seen.add(group["id"])
            out.append(group)
    return out


def rules(group: dict[str, Any]) -> list[int]:
    return list(group["bm25_order"])


def by_meaning(variant: str = "", cap: int = CANDIDATES, first: int = WORDS_FIRST) -> Order:
    """The candidates ``code_meaning`` encodes (the subject's own lines, then BM25's
    order, ``CANDIDATES`` at most), by cosine (of the line read as ``variant`` reads it,
    ``code_lines.CONTEXTS``; else as ``code_meaning.line_context`` does)."""

    def order(group: dict[str, Any]) -> list[int]:
        read = group["variants"][variant] if variant else group["cosines"]
        cosines = {int(k): v for k, v in read.items()}
        candidates = encoded(group["bm25_order"], group["own"], first, cap)
        return sorted(candidates, key=lambda i: -cosines[i])

    return order


def rrf_merged(orders: Sequence[Sequence[Any]], k: int = RRF_K) -> list[Any]:
    """Reciprocal rank fusion: the lines by the sum over the orders of 1 / (k + rank)."""
    score: dict[Any, float] = {}
    for order in orders:
        for rank, line in enumerate(order, start=1):
            score[line] = score.get(line, 0.0) + 1 / (k + rank)
    return sorted(score, key=lambda line: -score[line])


def fused(
    weight: float,
    k: int = RRF_K,
    variant: str = "",
    cap: int = CANDIDATES,
    first: int = WORDS_FIRST,
) -> Order:
    """BM25's order and the cosine's, by weighted reciprocal rank."""

    def order(group: dict[str, Any]) -> list[int]:
        score: dict[int, float] = {}
        meaning = by_meaning(variant, cap, first)(group)
        for w, ranks in ((1.0, rules(group)), (weight, meaning)):
            for rank, line in enumerate(ranks, start=1):
                score[line] = score.get(line, 0.0) + w / (k + rank)
        return sorted(score, key=lambda line: -score[line])

    return order


EXTRA = ("bm25_reciprocal_rank", "cosine_reciprocal_rank", "cosine", "cosine_below_best")
EXTRA_PRIOR = (1.0, 1.0, 0.0, 0.0)  # reciprocal rank fusion as a special case


def learned_rows(group: dict[str, Any]) -> tuple[list[int], np.ndarray]:
    """The lines either order ranks, each with its ``FEATURES`` row and the ``EXTRA``
    columns (a line one order lacks: rank and cosine beyond its last)."""
    bm25, meaning = rules(group), by_meaning()(group)
    lines = list(dict.fromkeys([*bm25, *meaning]))
    cosines = {int(k): v for k, v in group["cosines"].items()}
    floor = min(cosines.values(), default=0.0)
    best = max(cosines.values(), default=0.0)
    rows = np.array(group["rows"], dtype=np.float64)[lines]
    rank_b = {line: r for r, line in enumerate(bm25, start=1)}
    rank_m = {line: r for r, line in enumerate(meaning, start=1)}
    extra = [
        [
            1 / (RRF_K + rank_b.get(i, len(bm25) + 1)),
            1 / (RRF_K + rank_m.get(i, len(meaning) + 1)),
            cosines.get(i, floor) if i in rank_m else floor,
            (cosines.get(i, floor) if i in rank_m else floor) - best,
        ]
        for i in lines
    ]
    return lines, np.hstack([rows, np.array(extra).reshape(len(lines), len(EXTRA))])


def learned(data: dict[str, list[dict[str, Any]]], l2: float) -> Order:
    """A linear ranker over ``FEATURES`` and ``EXTRA``, fitted on ``data``'s groups."""
    train = []
    for group in (g for groups in data.values() for g in groups):
        lines, rows = learned_rows(group)
        labels = np.array([group["labels"][i] for i in lines], dtype=np.float64)
        if labels.any():
            train.append((rows, labels))
    weights = fit(train, l2, EXTRA, EXTRA_PRIOR)

    def order(group: dict[str, Any]) -> list[int]:
        lines, rows = learned_rows(group)
        score = scores(weights, rows)
        return [lines[k] for k in sorted(range(len(lines)), key=lambda k: (-score[k], k))]

    return order


def hits(order: Order, data: Sequence[dict[str, Any]], best: int = BEST) -> int:
    return sum(any(g["labels"][i] for i in order(g)[:best]) for g in data)


def chosen_weight(data: dict[str, list[dict[str, Any]]]) -> float:
    """The weight whose fusion hits most over ``data`` (ties: the smaller, nearer BM25)."""
    return max(reversed(WEIGHTS), key=lambda w: sum(hits(fused(w), g) for g in data.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=DEV_SETS, default=list(DEV_SETS))
    parser.add_argument("--best", type=int, default=BEST)
    parser.add_argument("--variants", action="store_true", help="each reading of a line")
    parser.add_argument("--caps", action="store_true", help="fewer lines encoded")
    parser.add_argument("--learned", type=float, help="a linear ranker, this L2, set left out")
    args = parser.parse_args()
    data = {name: groups(name) for name in args.sets}
    systems: dict[str, Order] = {"bm25": rules, "cosine": by_meaning(), "rrf": fused(1.0)}
    if args.variants:
        for variant in CONTEXTS:
            systems |= {variant: by_meaning(variant), f"rrf {variant}": fused(1.0, RRF_K, variant)}
    elif args.caps:
        systems |= {f"cap{c}": fused(1.0, RRF_K, "", c) for c in CAPS}
        systems |= {f"first{f}": fused(1.0, RRF_K, "", CANDIDATES, f) for f in (0, 3, 20)}
        systems |= {f"16 first{f}": fused(1.0, RRF_K, "", 16, f) for f in (3, 10)}
        systems |= {f"24 first{f}": fused(1.0, RRF_K, "", 24, f) for f in (3, 10)}
    else:
        systems |= {f"w{w:g}": fused(w) for w in WEIGHTS if w != 1.0}
    names = [*systems, *(["learned"] if args.learned is not None else [])]
    print("| set | half | groups | " + " | ".join(names) + " | left out: weight, hits |")
    print("|---|---|---:|" + "---:|" * len(names) + "---|")
    totals = {k: 0 for k in [*systems, *(["learned"] if args.learned is not None else [])]}
    left = 0
    for name, data_set in data.items():
        cells = {k: hits(order, data_set, args.best) for k, order in systems.items()}
        others = {o: g for o, g in data.items() if o != name}
        if args.learned is not None:
            cells["learned"] = hits(learned(others, args.learned), data_set, args.best)
        weight = chosen_weight(others)
        out = hits(fused(weight), data_set, args.best)
        left += out
        totals = {k: totals[k] + v for k, v in cells.items()}
        half = "read" if name in READ else "check"
        row = " | ".join(str(v) for v in cells.values())
        print(f"| {name} | {half} | {len(data_set)} | {row} | {weight:g}, {out} |")
    count = sum(len(g) for g in data.values())
    print(f"| all | | {count} | " + " | ".join(map(str, totals.values())) + f" | {left} |")


if __name__ == "__main__":
    main()
