"""Code questions of the never-seen sets answered (issue 32, item 4): the items asked of
a repository in the development sets (``unseen_set.DEV_SETS``: ``unseen`` … ``unseen13``;
never the held-out ones), each asked through the product's own path
(``unseen.ask_all``: the asker ``make_asker`` builds, follow-ups in their item's thread,
selections as the reader sends them), for this checkout or any other (``--before``), in one
child process per set, beside BM25's top paragraph of the same run (``unseen.baseline``).

    PYTHONPATH=src python benchmarks/code_answers_unseen.py --kinds code --before /work/main/src

Printed per set and kind, for this checkout and the previous one (``--before``): answer hit
(a gold phrase in the direct answer; covered items), passage hit (in a quote or the
passage), wrong refusals (covered items refused), uncovered refused, wrong (covered, neither
refused nor hit) and bm25p (BM25's top paragraph holding a gold phrase). The documents are
added without vectors (``ASKALONG_EMBEDDER=none``) unless ``--vectors`` (the bundled
embedder's, as a library has them, for a code route that reads them; two shared cores
spend minutes embedding).
``--show`` prints every answer missed; ``--rows FILE`` keeps every answer (JSON) for
reading.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import markdown_table, share, write_results
from unseen_set import DEV_SETS, KINDS

HERE = Path(__file__).resolve().parent
RESULT = f"code-answers-DEV-{datetime.date.today().isoformat()}.md"
TITLE = "Code questions of the never-seen sets (DEV)"
NOTES = """
DEV figures: the sets' code items were read while the code answers were built (issue 32,
item 4), so they measure the direction of a change. Answer hit: a gold phrase in the direct
answer (the answer's text, whose code lines are quoted whole); wrong: covered, not refused,
no gold phrase; bm25p: BM25's top paragraph (one block) holding a gold phrase, same run;
previous: the checkout given by `--before`, asked in the same run. No vectors
(`ASKALONG_EMBEDDER=none`) unless `--vectors`.
"""


def code_items(name: str, kinds: Sequence[str] | None = None) -> list[Any]:
    """The items of set ``name`` asked of a repository (``doc_kind`` ``code_*``), only
    those of ``kinds`` when given."""
    from unseen_set import load_items, questions_of

    items = [i for i in load_items(questions_of(name)) if i.doc_kind.startswith("code")]
    return [i for i in items if not kinds or i.kind in kinds]


def child(name: str, kinds: Sequence[str] | None, out: Path, vectors: bool) -> None:
    """Set ``name``'s code items asked under a fresh home (embedded when ``vectors``); the
    rows written to ``out``, each with BM25's top paragraph's hit (``bm25p``)."""
    import unseen

    items = code_items(name, kinds)
    with tempfile.TemporaryDirectory(prefix="askalong-codeans-") as folder:
        home = Path(folder)
        if not vectors:
            os.environ["ASKALONG_EMBEDDER"] = "none"
        unseen.build(home, HERE / name / "docs", items, vectors=vectors)
        rows = unseen.ask_all(home, items, "product")
        paragraphs = [r for r in unseen.baseline(home, items) if r["system"] == "bm25p"]
    for row, item, paragraph in zip(rows, items, paragraphs, strict=True):
        row["set"] = name
        row["gold"] = list(item.gold)
        row["question"] = item.question or f"[{item.intent}] {item.selection}"
        row["bm25p"] = paragraph["answer_hit"]
    out.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def asked(src: Path, name: str, kinds: Sequence[str] | None, vectors: bool) -> list[dict[str, Any]]:
    """Set ``name``'s rows, asked by the checkout whose sources are ``src``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = {**os.environ, "PYTHONPATH": str(src)}
        command = [sys.executable, __file__, "--child", name, "--out", out.name]
        command += ["--kinds", *kinds] if kinds else []
        command += ["--vectors"] if vectors else []
        subprocess.run(command, env=env, check=True)
        rows: list[dict[str, Any]] = json.loads(Path(out.name).read_text(encoding="utf-8"))
    return rows


def cells(rows: Sequence[dict[str, Any]]) -> list[str]:
    covered = [r for r in rows if r["covered"]]
    uncovered = [r for r in rows if not r["covered"]]
    wrong = [{"wrong": not r["refused"] and not r["answer_hit"]} for r in covered]
    return [
        str(len(rows)),
        share(covered, "answer_hit"),
        share(covered, "passage_hit"),
        share(covered, "refused"),
        share(wrong, "wrong"),
        share(uncovered, "refused"),
        share(covered, "bm25p"),
    ]


def table(systems: dict[str, list[dict[str, Any]]], sets: Sequence[str]) -> str:
    """One row per group (each set, each kind, all) and system."""
    rows = next(iter(systems.values()))
    groups = [(s, "set") for s in sets] + [
        (k, "kind") for k in dict.fromkeys(r["kind"] for r in rows)
    ]
    body = []
    for group, key in [*groups, ("all", "")]:
        for system, answers in systems.items():
            picked = [r for r in answers if not key or r[key] == group]
            body.append([group, system, *cells(picked)])
    head = ["group", "answerer", "n", "answer hit", "passage hit", "wrong refusals", "wrong"]
    return markdown_table([*head, "uncovered refused", "bm25p"], "llrrrrrrr", body)


def missed(rows: Sequence[dict[str, Any]]) -> str:
    """Each item answered wrongly: what was asked, the gold, what came back."""
    lines = []
    for r in rows:
        if r["answer_hit"] or (not r["covered"] and r["refused"]):
            continue
        answer = " | ".join(r["answer"].splitlines())[:300]
        lines.append(f"- {r['id']} {r['question']!r} gold {r['gold']}: {answer}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--before", type=Path, help="the previous checkout's src folder")
    parser.add_argument("--show", action="store_true", help="print every answer missed")
    parser.add_argument("--write", action="store_true", help="write benchmarks/results/")
    parser.add_argument("--rows", type=Path, help="every answer of this checkout (JSON)")
    parser.add_argument("--sets", nargs="+", choices=DEV_SETS, default=list(DEV_SETS))
    parser.add_argument("--kinds", nargs="+", choices=KINDS, help="only these kinds of item")
    parser.add_argument("--vectors", action="store_true", help="embed the documents")
    parser.add_argument("--child", choices=DEV_SETS, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.kinds, args.out, args.vectors)
        return
    here = Path(__file__).resolve().parents[1] / "src"
    sources = {"this checkout": here, **({"previous": args.before} if args.before else {})}
    systems = {
        k: [r for s in args.sets for r in asked(src, s, args.kinds, args.vectors)]
        for k, src in sources.items()
    }
    command = "benchmarks/code_answers_unseen.py" + (
        f" --before {args.before}" if args.before else ""
    )
    command += f" --kinds {' '.join(args.kinds)}" if args.kinds else ""
    command += " --vectors" if args.vectors else ""
    text = f"# {TITLE} ({datetime.date.today().isoformat()})\n\n`{command}`\n\n"
    text += table(systems, args.sets) + NOTES
    if args.show:
        print(missed(systems["this checkout"]), file=sys.stderr)
    if args.rows:
        args.rows.write_text(json.dumps(systems, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.write:
        write_results(text, RESULT, None)
    else:
        print(text)


if __name__ == "__main__":
    main()
