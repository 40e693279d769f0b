"""Where cross-lingual questions are lost (issue 32): a Chinese question over an English
document, or the reverse, through the learned answerer on recorded DEV evidence
(``unseen_replay.py record``).

For each recorded plain question of kind ``cross_lingual`` it says whether a gold phrase
is in the evidence the answerer read (any unit, a retrieved unit), how the search ranked
the first unit holding it (each route's rank of its best hit), whether the answerer took
the evidence as across languages, where the best gold sentence ranks among the
candidates (the rank head's order, the sentences that may answer), and how the answer
ended (gold in the direct answer, refused, or another sentence). Prints one table a
recording and the totals.

    PYTHONPATH=src:benchmarks python benchmarks/cross_lingual.py /work/data/rec/unseen*.pkl
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _table import markdown_table
from askalong.answer.base import DraftRequest
from askalong.answer.extractive.learned import _may_answer, learned_answer, weighed
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.scorer.model import Scorer, shipped_scorer
from askalong.providers.base import Embedder
from unseen_replay import MARKS, bundled_embedder, recording
from unseen_set import Item, contains_any

CROSS = "cross_lingual"
RANKS = ((1, "1"), (3, "2-3"), (10, "4-10"), (10**9, ">10"))


@dataclass(frozen=True)
class Traced:
    """One cross-lingual question's path through search and answerer."""

    set: str
    item: Item
    in_units: bool
    in_retrieved: bool
    keyword_rank: int | None  # of the best hit of the first unit holding the gold
    vector_rank: int | None
    across: bool  # the answerer took the evidence as in the other language
    candidates: int
    gold_rank: int | None  # 1-based, among the candidates that may answer
    refused: bool
    hit: bool


def traced(
    name: str, item: Item, request: DraftRequest, embedder: Embedder, scorer: Scorer
) -> Traced:
    """``item``'s recorded request followed through the learned answerer."""
    units = request.units
    holding = [u for u in units if contains_any(u.text, item.gold)]
    retrieved = [u for u in holding if u.origin == "retrieved"]
    keyword, vector = _routes(request, holding[0].chunk_ids if holding else ())
    q = request.question
    w = weighed(q, units, scorer, embedder, request.hits)
    order = [k for k in np.argsort(-w.ranks) if _may_answer(w.found[k])]
    gold = [n for n, k in enumerate(order, 1) if contains_any(w.found[k].text, item.gold)]
    result = learned_answer(q, units, embedder=embedder, scorer=scorer, hits=request.hits)
    refused = result.status == "not_covered"
    hit = not refused and contains_any(MARKS.sub("", result.answer), item.gold)
    return Traced(
        name, item, bool(holding), bool(retrieved), keyword, vector, w.across,
        len(w.found), gold[0] if gold else None, refused, hit,
    )  # fmt: skip


def _routes(request: DraftRequest, chunk_ids: Sequence[str]) -> tuple[int | None, int | None]:
    """The keyword and vector ranks of the best-ranked hybrid hit among ``chunk_ids``."""
    mine = [h for h in request.hits if h.chunk_id in chunk_ids and h.mode == "hybrid"]
    keyword = [h.keyword_rank for h in mine if h.keyword_rank is not None]
    vector = [h.vector_rank for h in mine if h.vector_rank is not None]
    return min(keyword, default=None), min(vector, default=None)


def traced_all(paths: Sequence[Path], scorer: Scorer) -> list[Traced]:
    """Every recorded cross-lingual plain question of the recordings, traced."""
    embedder = CachedEmbedder(bundled_embedder(), size=200_000)
    out = []
    for path in paths:
        name, items, requests = recording(path)
        for item in items:
            request = requests.get(item.id)
            if item.kind == CROSS and request is not None and request.intent == "ask":
                out.append(traced(name, item, request, embedder, scorer))
    return out


def _bucket(rank: int | None) -> str:
    if rank is None:
        return "none"
    return next(label for top, label in RANKS if rank <= top)


def summary(done: Sequence[Traced]) -> list[str]:
    """One row of counts for ``done`` (covered questions)."""
    covered = [t for t in done if not t.item.refuse]
    ranks = Counter(_bucket(t.gold_rank) for t in covered if t.in_units)
    return [
        str(len(covered)),
        str(sum(t.hit for t in covered)),
        str(sum(t.refused for t in covered)),
        str(sum(t.in_units for t in covered)),
        str(sum(t.in_retrieved for t in covered)),
        str(sum(t.across for t in covered)),
        " / ".join(str(ranks[label]) for _, label in (*RANKS, (0, "none"))),
        str(sum(t.in_units and not t.hit and not t.refused for t in covered)),
    ]


HEADER = (
    "set", "covered", "gold answered", "refused", "gold in units", "in a retrieved unit",
    "taken as across", "gold sentence rank 1 / 2-3 / 4-10 / >10 / none (gold in units)",
    "gold in units, another sentence answered",
)  # fmt: skip


def table(done: Sequence[Traced]) -> str:
    """Per set, per question language and in all."""
    groups: dict[str, list[Traced]] = {}
    for t in done:
        for key in (t.set, f"question {t.item.lang}", "all"):
            groups.setdefault(key, []).append(t)
    rows = [(key, *summary(group)) for key, group in groups.items() if key != "all"]
    rows.append(("all", *summary(groups["all"])))
    return markdown_table(HEADER, "l" + "r" * (len(HEADER) - 1), rows)


def routes_table(done: Sequence[Traced]) -> str:
    """How the search ranked the first unit holding the gold, per route."""
    held = [t for t in done if t.in_units]
    rows = []
    for route in ("keyword", "vector"):
        ranks = Counter(_bucket(getattr(t, f"{route}_rank")) for t in held)
        rows.append((route, *(str(ranks[label]) for _, label in (*RANKS, (0, "none")))))
    header = ("route", "rank 1", "2-3", "4-10", ">10", "not found by the route")
    return markdown_table(header, "lrrrrr", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--misses", action="store_true", help="print each unanswered question")
    args = parser.parse_args()
    done = traced_all(args.recordings, shipped_scorer())
    print(table(done))
    print(routes_table(done))
    if args.misses:
        for t in done:
            if not t.hit:
                print(f"{t.set} {t.item.id} rank {t.gold_rank} refused {t.refused} "
                      f"units {t.in_units}: {t.item.question} {t.item.gold}")  # fmt: skip


if __name__ == "__main__":
    main()
