"""Follow-ups of the never-seen dev sets, asked in their threads: the product's answer
against BM25's top-1 paragraph of the follow-up as typed.

Only the follow-up items and the items they follow (their thread, oldest first) are asked,
over their own documents only, through the product's asker (``unseen.ask_one``): an item
with no thread is asked without history, so a change to how follow-ups are read cannot
touch it. Printed per set and in all: follow-ups n, answer hit (a gold phrase in the direct
answer), passage hit, evidence hit (a gold phrase in the units the answerer was handed),
covered refused, and bm25p's answer hit; ``--out`` keeps every
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
from unseen_replay import Recording
from unseen_set import DEV_SETS, SETS, Item, contains_any, load_items, questions_of


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
            recording = asker.answerer = Recording(asker.answerer)
            threads: dict[str, Any] = {}
            for item in items:
                recording.asking = item.id
                row, threads[item.id] = unseen.ask_one(library, asker, ids[item.doc], item, threads)
                if item.kind == "follow_up" and item.intent == "ask":
                    row["evidence_hit"] = _in_evidence(item, recording.requests.get(item.id))
                    bm25p = baseline_answer("bm25p", library, item.question, ids[item.doc])
                    row["bm25p"] = bm25p
                    row["bm25p_hit"] = not item.refuse and contains_any(bm25p, item.gold)
                    rows.append({"set": set_name, "question": item.question, **row})
    return rows


def _in_evidence(item: Item, request: Any) -> bool:
    """Whether a gold phrase of ``item`` is in the units its answerer was handed."""
    units = request.units if request is not None else ()
    return not item.refuse and any(contains_any(unit.text, item.gold) for unit in units)


def line(name: str, rows: Sequence[dict[str, Any]]) -> str:
    """One table row: n, answer hit, passage hit, covered refused, bm25p hit."""
    covered = [r for r in rows if r["covered"]]
    keys = ("answer_hit", "passage_hit", "evidence_hit")
    counts = [sum(bool(r.get(key)) for r in covered) for key in keys]
    refused = sum(bool(r["refused"]) for r in covered)
    bm25p = sum(bool(r["bm25p_hit"]) for r in covered)
    n = len(covered)
    cells = [f"{count}/{n}" for count in (*counts, refused, bm25p)]
    return f"| {name} | {n} | {' | '.join(cells)} |"


def _arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    # the held-out test sets are asked only when named: a default run never answers them
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(DEV_SETS))
    parser.add_argument("--out", type=Path, default=None, help="every follow-up's answer")
    return parser.parse_args(argv)


def main() -> None:
    args = _arguments()
    rows = [row for name in args.sets for row in asked_set(name)]
    print("| set | n | answer hit | passage hit | evidence hit | covered refused | bm25p hit |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in args.sets:
        print(line(name, [r for r in rows if r["set"] == name]))
    print(line("all", rows))
    if args.out is not None:
        args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
