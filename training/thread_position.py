"""The weights of a follow-up's sentence positions against its previous answer
(``answer/extractive/thread_position.py``), fitted on the never-seen DEV sets' recorded
follow-ups (``benchmarks/unseen_replay.py record``) and measured by leaving one set out.

Each leaning follow-up becomes a group: the candidates the learned answerer ranks (what
``learned.weighed`` makes of the recorded evidence), the rank head's scores, each one's
position (``POSITIONS``) and whether it holds a gold phrase. The weights are chosen by
coordinate search over a grid (in units of the groups' median score spread) for the most
groups whose best-scored sentence holds the gold, the smaller weight on a tie. Each set's
follow-ups are answered by the real answerer (``learned_answer``) with the weighting chosen
on the other sets, beside none; then every weighting's total over all sets and the score
spread (one step), whose best weighting goes into ``THREAD_WEIGHTS``.

    PYTHONPATH=src:benchmarks:training python training/thread_position.py /work/data/rec/unseen*.pkl
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _table import markdown_table
from askalong.answer.base import DraftRequest
from askalong.answer.extractive.answerer import ExtractiveAnswerer, leaned_on, learned_question
from askalong.answer.extractive.learned import learned_answer, weighed
from askalong.answer.extractive.thread_position import POSITIONS, thread_positions
from askalong.answer.scorer.model import shipped_scorer
from askalong.providers.base import Embedder
from unseen_replay import MARKS, bundled_embedder, recording
from unseen_set import Item, contains_any

STEPS = (-0.5, 0.25, 0.5, 1.0, 2.0)  # times the score spread


@dataclass(frozen=True)
class Group:
    """One recorded follow-up: its request and what its candidates are."""

    set_name: str
    item: Item
    request: DraftRequest
    ranks: np.ndarray  # the rank head's scores
    positions: np.ndarray  # index into POSITIONS, -1 outside the previous answer's passages
    gold: np.ndarray  # holds a gold phrase


def groups_of(paths: Sequence[Path], embedder: Embedder | None) -> list[Group]:
    """The leaning covered follow-ups of the recordings at ``paths``, as groups."""
    scorer, groups = shipped_scorer(), []
    for path in paths:
        name, items, requests = recording(path)
        for item in items:
            request = requests.get(item.id)
            if item.kind != "follow_up" or item.refuse or request is None:
                continue
            if request.intent != "ask" or not leaned_on(request):
                continue
            w = weighed(learned_question(request), request.units, scorer, embedder, request.hits)
            places = thread_positions(w.found, leaned_on(request))
            index = [-1 if p is None else POSITIONS.index(p) for p in places]
            gold = [contains_any(c.text, item.gold) for c in w.found]
            groups.append(Group(name, item, request, w.ranks, np.array(index), np.array(gold)))
    return groups


FAMILIES = {  # the positions one weight moves: from the said sentence on, or after it
    "from said": ("said", "next", "after", "further"),
    "after said": ("next", "after", "further"),
}


def spread(groups: Sequence[Group]) -> float:
    """The median spread (standard deviation) of a group's rank scores."""
    return float(np.median([np.std(g.ranks) for g in groups if len(g.ranks) > 1]))


def candidates_of(unit: float) -> dict[str, dict[str, float]]:
    """Every weighting tried: none, and each family at each of ``STEPS`` times ``unit``."""
    tried = {"none": dict.fromkeys(POSITIONS, 0.0)}
    for family, moved in FAMILIES.items():
        for step in STEPS:
            if step:
                w = round(step * unit, 4)
                tried[f"{family} {step:+g}"] = {p: w if p in moved else 0.0 for p in POSITIONS}
    return tried


def answer_held(g: Group, embedder: Embedder | None, thread: Mapping[str, float]) -> bool:
    """Whether the real answerer's direct answer to ``g`` with ``thread`` holds gold."""
    r = g.request
    result = learned_answer(
        learned_question(r), r.units, embedder=embedder, hits=r.hits, said=leaned_on(r),
        thread=thread,
    )  # fmt: skip
    text = MARKS.sub("", result.answer)
    return result.status != "not_covered" and contains_any(text, g.item.gold)


def held_table(groups: Sequence[Group], embedder: Embedder | None) -> dict[str, dict[str, int]]:
    """Per weighting tried, the answers holding gold per set."""
    table: dict[str, dict[str, int]] = {}
    for name, thread in candidates_of(spread(groups)).items():
        per_set: dict[str, int] = {}
        for g in groups:
            per_set[g.set_name] = per_set.get(g.set_name, 0) + answer_held(g, embedder, thread)
        table[name] = per_set
    return table


def best(table: Mapping[str, Mapping[str, int]], sets: Sequence[str]) -> str:
    """The weighting with the most answers holding gold over ``sets`` ("none" on a tie)."""
    return max(table, key=lambda name: (sum(table[name][s] for s in sets), name == "none"))


def cross(groups: Sequence[Group], embedder: Embedder | None) -> None:
    """Each set answered with the weighting chosen on the others, beside none; then every
    weighting's total."""
    table = held_table(groups, embedder)
    sets = sorted({g.set_name for g in groups})
    rows, before, after = [], 0, 0
    for name in sets:
        chosen = best(table, [s for s in sets if s != name])
        n = sum(g.set_name == name for g in groups)
        before, after = before + table["none"][name], after + table[chosen][name]
        rows.append((name, str(n), str(table["none"][name]), str(table[chosen][name]), chosen))
    rows.append(("all", str(len(groups)), str(before), str(after), best(table, sets)))
    header = (
        "held-out set",
        "leaning follow-ups",
        "answer hit, none",
        "chosen on the others",
        "weighting",
    )
    print(markdown_table(header, "lrrrl", rows), end="\n\n")
    totals = [(name, str(sum(per_set.values()))) for name, per_set in table.items()]
    print(markdown_table(("weighting (all sets)", "answer hit"), "lr", totals))
    print(f"score spread (one step): {spread(groups):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    args = parser.parse_args()
    embedder = ExtractiveAnswerer(bundled_embedder()).embedder
    groups = groups_of(args.recordings, embedder)
    cross(groups, embedder)


if __name__ == "__main__":
    main()
