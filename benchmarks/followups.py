"""Follow-ups of the never-seen dev sets, asked in their threads: the product's answer
against BM25's top-1 paragraph of the follow-up as typed.

Only the follow-up items and the items they follow (their thread, oldest first) are asked,
over their own documents only, through the product's asker (``unseen.ask_one``): an item
with no thread is asked without history, so a change to how follow-ups are read cannot
touch it. Printed per set and in all: follow-ups n, answer hit (a gold phrase in the direct
answer), passage hit, covered refused, and bm25p's answer hit; ``--out`` keeps every
follow-up's answer and bm25p's paragraph (``.json``).

    PYTHONPATH=src:benchmarks nice -n 10 python benchmarks/followups.py --out /tmp/fu.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import unseen
from unseen_baselines import baseline_answer
from unseen_set import SETS, Item, contains_any, load_items, questions_of


def threads_of_follow_ups(items: Sequence[Item]) -> list[Item]:
    """The follow-up items and every item they follow, in the set's order."""
    by_id = {item.id: item for item in items}
    wanted: set[str] = set()
    for item in items:
        if item.kind != "follow_up":
            continue
        link: Item | None = item
        while link is not None and link.id not in wanted:
            wanted.add(link.id)
            link = by_id.get(link.previous) if link.previous else None
    return [item for item in items if item.id in wanted]


def asked_set(set_name: str) -> list[dict[str, Any]]:
    """Each follow-up of ``set_name``: the product's answer and bm25p's, scored."""
    from askalong.asking.choose import make_asker

    items = threads_of_follow_ups(load_items(questions_of(set_name)))
    rows = []
    with tempfile.TemporaryDirectory(prefix="askalong-followups-") as folder:
        home = Path(folder)
        ids = unseen.build(home, questions_of(set_name).parent / "docs", items, True)
        with unseen.open_library(home) as library:
            asker = make_asker(library)
            threads: dict[str, Any] = {}
            for item in items:
                row, threads[item.id] = unseen.ask_one(library, asker, ids[item.doc], item, threads)
                if item.kind == "follow_up" and item.intent == "ask":
                    bm25p = baseline_answer("bm25p", library, item.question, ids[item.doc])
                    row["bm25p"] = bm25p
                    row["bm25p_hit"] = not item.refuse and contains_any(bm25p, item.gold)
                    rows.append({"set": set_name, "question": item.question, **row})
    return rows


def line(name: str, rows: Sequence[dict[str, Any]]) -> str:
    """One table row: n, answer hit, passage hit, covered refused, bm25p hit."""
    covered = [r for r in rows if r["covered"]]
    counts = [sum(bool(r[key]) for r in covered) for key in ("answer_hit", "passage_hit")]
    refused = sum(bool(r["refused"]) for r in covered)
    bm25p = sum(bool(r["bm25p_hit"]) for r in covered)
    n = len(covered)
    return f"| {name} | {n} | {counts[0]}/{n} | {counts[1]}/{n} | {refused}/{n} | {bm25p}/{n} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--out", type=Path, default=None, help="every follow-up's answer")
    args = parser.parse_args()
    rows = [row for name in args.sets for row in asked_set(name)]
    print("| set | n | answer hit | passage hit | covered refused | bm25p hit |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.sets:
        print(line(name, [r for r in rows if r["set"] == name]))
    print(line("all", rows))
    if args.out is not None:
        args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
