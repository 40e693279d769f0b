"""Code lines by meaning, alone (issue 32): the DEV sets' code items asked twice over the
same evidence, by the product's asker without an embedder (the lines BM25's order alone)
and by the same asker given the bundled embedder (the lines BM25's order fused with the
reader encoder's, ``asking/code_meaning.py``); the documents carry no vectors
(``ASKALONG_EMBEDDER=none``), so retrieval, and the function chosen, are the same in both:
only the lines can differ.

    PYTHONPATH=src:benchmarks python benchmarks/code_lines_meaning.py --sets unseen2 unseen4

Printed per set: answer hit (a gold phrase in the direct answer; covered items) of each,
and the CPU time of an ask (``time.process_time``, the encoder's threads included) at the
median, by BM25 alone, with the reader on lines it has not seen (cold) and asked again
(warm: a follow-up over the same function finds its lines' vectors cached), with the
cold/BM25 ratio. ``--show`` prints the items whose hit differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import markdown_table
from unseen_set import DEV_SETS

HERE = Path(__file__).resolve().parent
SYSTEMS = ("bm25", "meaning cold", "meaning warm")


def child(name: str, out: Path, caches: Path | None) -> None:
    """Set ``name``'s code items asked by both askers; the rows written to ``out``."""
    import code_answers_unseen
    import unseen
    from askalong.asking.asker import Asker
    from askalong.asking.choose import make_asker
    from askalong.providers.choose import make_embedder
    from askalong.settings import Settings

    items = code_answers_unseen.code_items(name, ["code"])
    os.environ["ASKALONG_EMBEDDER"] = "none"
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="askalong-codemeaning-") as folder:
        home = Path(folder)
        ids = unseen.build(home, HERE / name / "docs", items, vectors=False)
        embedder = make_embedder(Settings(home=caches or home, embedder="local"))
        with unseen.open_library(home) as library:
            plain = make_asker(library)
            reading = Asker(library.store, library.searcher, plain.answerer, embedder=embedder)
            _warmed(reading, library, ids, items[0])
            for system, asker in zip(SYSTEMS, (plain, reading, reading), strict=True):
                rows += _asked(
                    system,
                    name,
                    lambda a, i, t: unseen.ask_one(library, a, ids[i.doc], i, t),
                    asker,
                    items,
                )
    out.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def _warmed(asker: Any, library: Any, ids: Any, item: Any) -> None:
    """The encoder loaded (its graphs built or read) before anything is timed."""
    reader = asker.embedder.reader()
    reader.embed_passages(["a line of code to load the encoder with"])
    reader.embed_query("a question to load the encoder with")


def _asked(
    system: str,
    name: str,
    ask: Callable[[Any, Any, dict[str, Any]], tuple[dict[str, Any], Any]],
    asker: Any,
    items: Sequence[Any],
) -> list[dict[str, Any]]:
    """Each item asked by ``asker`` (follow-ups in their item's thread), with its CPU ms."""
    threads: dict[str, Any] = {}
    rows = []
    for item in items:
        started = time.process_time()
        row, threads[item.id] = ask(asker, item, threads)
        cpu = (time.process_time() - started) * 1000
        rows.append({**row, "system": system, "set": name, "cpu_ms": cpu, "q": item.question})
    return rows


def table(rows: Sequence[dict[str, Any]], sets: Sequence[str]) -> str:
    body = []
    for group in [*sets, "all"]:
        mine = [r for r in rows if group in ("all", r["set"])]
        by = {s: [r for r in mine if r["system"] == s] for s in SYSTEMS}
        covered = {s: [r for r in by[s] if r["covered"]] for s in SYSTEMS}
        hit = {s: sum(bool(r["answer_hit"]) for r in covered[s]) for s in SYSTEMS}
        cpu = {s: statistics.median(r["cpu_ms"] for r in by[s]) for s in SYSTEMS}
        n = len(covered["bm25"])
        body.append(
            [
                group,
                str(n),
                f"{hit['bm25']}/{n}",
                f"{hit['meaning cold']}/{n}",
                f"{cpu['bm25']:.0f}",
                f"{cpu['meaning cold']:.0f}",
                f"{cpu['meaning warm']:.0f}",
                f"{cpu['meaning cold'] / cpu['bm25']:.2f}",
            ]
        )
    head = ["set", "covered", "hit bm25", "hit meaning", "cpu ms bm25", "cold", "warm"]
    return markdown_table([*head, "cold / bm25"], "lrrrrrrr", body)


def differing(rows: Sequence[dict[str, Any]]) -> str:
    """The covered items one system hits and the other does not."""
    plain = {(r["set"], r["id"]): r for r in rows if r["system"] == "bm25"}
    lines = []
    for r in rows:
        was = plain[(r["set"], r["id"])]
        if r["system"] == "meaning cold" and r["covered"] and r["answer_hit"] != was["answer_hit"]:
            sign = "+" if r["answer_hit"] else "-"
            answer = " | ".join(r["answer"].splitlines())[:240]
            lines.append(f"{sign} {r['id']} {r['q']!r}: {answer}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=DEV_SETS, default=list(DEV_SETS))
    parser.add_argument("--caches", type=Path, help="a home whose model caches to reuse")
    parser.add_argument("--show", action="store_true", help="print the items that differ")
    parser.add_argument("--rows", type=Path, help="every answer (JSON)")
    parser.add_argument("--child", choices=DEV_SETS, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.out, args.caches)
        return
    rows: list[dict[str, Any]] = []
    for name in args.sets:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, __file__, "--child", name, "--out", out.name]
            command += ["--caches", str(args.caches)] if args.caches else []
            subprocess.run(command, check=True)
            rows += json.loads(Path(out.name).read_text(encoding="utf-8"))
    print(table(rows, args.sets))
    if args.show:
        print(differing(rows), file=sys.stderr)
    if args.rows:
        args.rows.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
