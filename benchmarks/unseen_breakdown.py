"""Where the never-seen set's answer hit is lost: a saved run of ``unseen.py`` (its
``.json``) read back, each covered item of each scorer put in one place:

- ``hit``: the direct answer holds a gold phrase;
- ``refused``: a covered item answered "not covered" (a wrongful refusal);
- ``sentence``: the answer's passage (its paragraph) holds a gold phrase but the direct
  answer does not: the wrong sentence of the right passage;
- ``passage, bm25 had it``: the wrong passage while the BM25 top-1 paragraph held the gold;
- ``passage``: the wrong passage, and BM25's top-1 paragraph missed it too.

    python benchmarks/unseen_breakdown.py benchmarks/results/unseen-all-2026-12-04.json
    python benchmarks/unseen_breakdown.py --set unseen3 \
        benchmarks/results/unseen3-test-2026-12-05.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from unseen_baselines import BASELINES
from unseen_set import KINDS, SETS, contains_any, load_items, questions_of

PLACES = ("hit", "refused", "sentence", "passage, bm25 had it", "passage")


def place(row: dict[str, Any], gold: tuple[str, ...], bm25_hit: bool) -> str:
    """Where one covered answer stands (one of ``PLACES``)."""
    if row["answer_hit"]:
        return "hit"
    if row["refused"]:
        return "refused"
    if contains_any(row.get("passage") or "", gold):
        return "sentence"
    return "passage, bm25 had it" if bm25_hit else "passage"


def breakdown(
    rows: list[dict[str, Any]], set_name: str = "unseen"
) -> dict[tuple[str, str], Counter[str]]:
    """(system, kind) -> how many covered items of set ``set_name``'s run in each place
    (kind "all" too)."""
    gold = {i.id: i.gold for i in load_items(questions_of(set_name))}
    bm25 = {r["id"]: r["answer_hit"] for r in rows if r["system"] == "bm25"}
    counts: dict[tuple[str, str], Counter[str]] = {}
    for row in rows:
        if row["system"] in BASELINES or not row["covered"]:
            continue
        where = place(row, gold[row["id"]], bm25.get(row["id"], False))
        for kind in (row["kind"], "all"):
            counts.setdefault((row["system"], kind), Counter())[where] += 1
    return counts


def table(counts: dict[tuple[str, str], Counter[str]]) -> str:
    lines = ["| kind | system | n | " + " | ".join(PLACES) + " |"]
    lines.append("|---|---|---:|" + "---:|" * len(PLACES))
    for kind in (*KINDS, "all"):
        for system in sorted({s for s, _ in counts}):
            found = counts.get((system, kind))
            if found:
                cells = " | ".join(str(found[p]) for p in PLACES)
                lines.append(f"| {kind} | {system} | {sum(found.values())} | {cells} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("run", type=Path, help="the .json an unseen.py run saved")
    parser.add_argument("--set", choices=SETS, default="unseen", help="the set the run asked")
    args = parser.parse_args()
    rows = json.loads(args.run.read_text(encoding="utf-8"))["answers"]
    print(table(breakdown(rows, args.set)))


if __name__ == "__main__":
    main()
