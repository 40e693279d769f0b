"""The DEV sets' code answers over lines, recorded once and re-answered in seconds (issue 32):
for trying an order of the lines (``code_answers._best_lines``) as the product writes the
answer (its room, the lines each brings, the excerpt), not only where the line ranks.

``record`` asks each DEV set's code items through the product's path
(``code_answers_unseen``'s child: keyword search, no vectors) and pickles every call of
``code_answers.lines_draft`` (its question reading, evidence units, subject) with the
item's gold, to ``CACHE/<set>.replay.pkl``. ``replay`` answers them again with this
checkout's ``lines_draft``, without an embedder (BM25's order) and with the bundled one
(the reader's order merged), and prints answer hit per set and half (a gold phrase in the
answer, as ``unseen._scored`` counts it); ``--grid``: the hits of each half for each
merge (``code_meaning.interleaved``, or reciprocal rank fusion) and number of lines read
(``code_meaning.CANDIDATES``, ``WORDS_FIRST``), the product's chosen on the read half;
``--before SRC``: another checkout's hits beside this one's, same evidence, same run (each
answered in a child process over its own ``src``).

    PYTHONPATH=src:benchmarks python training/code_line_replay.py record
    PYTHONPATH=src:benchmarks python training/code_line_replay.py replay --show [--grid]
    PYTHONPATH=src:benchmarks python training/code_line_replay.py replay --before OLD/src
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_line_meaning import READ, rrf_merged  # noqa: E402
from code_lines import CACHE, _reader_embedder  # noqa: E402

from unseen_set import DEV_SETS  # noqa: E402

GRID_CAPS = (8, 16, 24, 32, 48)
GRID_FIRST = (3, 6, 10)
FUSIONS = ("interleave", "rrf")  # the product's rank-by-rank merge; reciprocal rank fusion


def record_child(name: str) -> None:
    """Set ``name``'s ``lines_draft`` calls, each with its item, pickled."""
    import code_answers_unseen
    import unseen
    from askalong.asking import code_answers

    calls: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    asking, drafting = unseen.ask_one, code_answers.lines_draft

    def ask_one(library: Any, asker: Any, doc_ids: Any, item: Any, threads: Any) -> Any:
        current["item"] = item
        return asking(library, asker, doc_ids, item, threads)

    def recorded(question: Any, units: Any, **kwargs: Any) -> Any:
        item = current["item"]
        calls.append(
            {
                "id": item.id,
                "gold": item.gold,
                "covered": not item.refuse,
                "question": question,
                "units": list(units),
                "kwargs": kwargs,
            }
        )
        return drafting(question, units, **kwargs)

    unseen.ask_one = ask_one
    code_answers.lines_draft = recorded
    code_answers_unseen.child(name, ["code"], Path(tempfile.mkstemp(suffix=".json")[1]), False)
    (CACHE / f"{name}.replay.pkl").write_bytes(pickle.dumps(calls))


def replayed(name: str, embedder: Any) -> dict[str, bool]:
    """Each covered item's last answer hit, answered again (``embedder``: the reader's)."""
    from answers import contains_any
    from askalong.asking import code_answers

    hits: dict[str, bool] = {}
    for call in pickle.loads((CACHE / f"{name}.replay.pkl").read_bytes()):
        if not call["covered"]:
            continue
        kwargs = {**call["kwargs"], "embedder": embedder}
        draft = code_answers.lines_draft(call["question"], call["units"], **kwargs)
        hits[call["id"]] = draft.status == "answered" and contains_any(draft.answer, call["gold"])
    return hits


def hits_child(sets: Sequence[str], out: str) -> None:
    """Each covered item's hit, BM25's order and merged, for the ``askalong`` on the path."""
    from askalong.answer.extractive.sentence_cache import CachedEmbedder

    embedder = CachedEmbedder(_reader_embedder(), size=1 << 20)
    hits = {name: [replayed(name, None), replayed(name, embedder)] for name in sets}
    Path(out).write_text(json.dumps(hits), encoding="utf-8")


def hits_of(src: Path, sets: Sequence[str]) -> dict[str, list[dict[str, bool]]]:
    """``hits_child``'s answer for the checkout whose ``src`` folder is given."""
    out = tempfile.mkstemp(suffix=".json")[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), str(ROOT / "training")])}
    command = [sys.executable, __file__, "hits-child", out, "--sets", *sets]
    subprocess.run(command, env=env, check=True)
    found: dict[str, list[dict[str, bool]]] = json.loads(Path(out).read_text("utf-8"))
    return found


def compared(sets: Sequence[str], before: Path) -> None:
    """Answer hit per set and half, the ``before`` checkout's and this one's, each by
    BM25's order and merged with the reader's (the product's with the bundled
    embedder); ``+``/``-`` on stderr: the items the merged order gains or loses."""
    then, now = hits_of(before, sets), hits_of(ROOT / "src", sets)
    print("| set | half | covered | BM25, before | BM25, this | merged, before | merged, this |")
    print("|---|---|---:|---:|---:|---:|---:|")
    totals: dict[str, list[int]] = {"read": [0] * 5, "check": [0] * 5}
    for name in sets:
        half = "read" if name in READ else "check"
        (plain0, meant0), (plain1, meant1) = then[name], now[name]
        row = [len(plain1), *(sum(h.values()) for h in (plain0, plain1, meant0, meant1))]
        totals[half] = [a + b for a, b in zip(totals[half], row, strict=True)]
        print(f"| {name} | {half} | " + " | ".join(map(str, row)) + " |")
        for item, hit in meant1.items():
            if hit != meant0[item]:
                print(f"  {'+' if hit else '-'} {item}", file=sys.stderr)
    for half, row in totals.items():
        print(f"| {half} half | | " + " | ".join(map(str, row)) + " |")


def replay(sets: Sequence[str], show: bool, grid: bool) -> None:
    from askalong.answer.extractive.sentence_cache import CachedEmbedder
    from askalong.asking import code_meaning

    embedder = CachedEmbedder(_reader_embedder(), size=1 << 20)
    merged = code_meaning.interleaved
    if grid:  # the lines encoded: how many, BM25's best how many of them
        print("| merge | lines read | BM25's first | read half | check half |")
        print("|---|---:|---:|---:|---:|")
        for fusion, cap, first in [
            (u, c, f) for u in FUSIONS for c in GRID_CAPS for f in GRID_FIRST if f <= c
        ]:
            code_meaning.CANDIDATES, code_meaning.WORDS_FIRST = cap, first
            code_meaning.interleaved = merged if fusion == "interleave" else rrf_merged
            meant = [sum(replayed(name, embedder).values()) for name in sets]
            read = sum(h for name, h in zip(sets, meant, strict=True) if name in READ)
            print(f"| {fusion} | {cap} | {first} | {read} | {sum(meant) - read} |", flush=True)
        return
    print("| set | half | covered | bm25 | meaning |\n|---|---|---:|---:|---:|")
    totals = {"read": [0, 0, 0], "check": [0, 0, 0]}
    for name in sets:
        plain, meant = replayed(name, None), replayed(name, embedder)
        half = "read" if name in READ else "check"
        row = [len(plain), sum(plain.values()), sum(meant.values())]
        totals[half] = [a + b for a, b in zip(totals[half], row, strict=True)]
        print(f"| {name} | {half} | " + " | ".join(map(str, row)) + " |")
        if show:
            for item, hit in meant.items():
                if hit != plain[item]:
                    print(f"  {'+' if hit else '-'} {item}", file=sys.stderr)
    for half, row in totals.items():
        print(f"| {half} half | | " + " | ".join(map(str, row)) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("step", choices=("record", "replay", "record-child", "hits-child"))
    parser.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--sets", nargs="+", choices=DEV_SETS, default=list(DEV_SETS))
    parser.add_argument("--show", action="store_true", help="the items whose hit differs")
    parser.add_argument("--grid", action="store_true", help="lines encoded: read / check hits")
    parser.add_argument("--before", type=Path, help="replay: this src folder's hits beside")
    args = parser.parse_args()
    if args.step == "record-child":
        record_child(args.args[0])
    elif args.step == "hits-child":
        hits_child(args.sets, args.args[0])
    elif args.before:
        compared(args.sets, args.before)
    elif args.step == "record":
        CACHE.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "training")]),
        }
        for name in args.sets:
            subprocess.run([sys.executable, __file__, "record-child", name], env=env, check=True)
    else:
        replay(args.sets, args.show, args.grid)


if __name__ == "__main__":
    main()
