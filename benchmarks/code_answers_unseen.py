"""Code questions of the never-seen sets answered (issue 32, item 4): the items asked of
a repository in ``benchmarks/unseen/``, ``unseen2/`` and ``unseen3/`` (now development
sets), each asked through the product's own path (``unseen.ask_all``: the asker
``make_asker`` builds, follow-ups in their item's thread, selections as the reader sends
them), for this checkout or any other (``--src``), in one child process per set.

    PYTHONPATH=src python benchmarks/code_answers_unseen.py --before /work/main/src

Printed per set and kind, for this checkout and the previous one (``--before``): answer hit
(a gold phrase in the direct answer; covered items), passage hit (in a quote or the
passage), wrong refusals (covered items refused) and uncovered refused. The documents are
added without vectors (``ASKALONG_EMBEDDER=none``): the code route reads no vectors, and
two shared cores would spend minutes embedding. ``--show`` prints every answer missed.
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

from _table import markdown_table, write_results

HERE = Path(__file__).resolve().parent
SETS = ("unseen", "unseen2", "unseen3")  # designs are decided on these
CHECK_SETS = ("unseen4",)  # a design is checked on these once, its figure reported apart
RESULT = f"code-answers-unseen-dev-{datetime.date.today().isoformat()}.md"
CHECK_RESULT = f"code-answers-unseen4-check-{datetime.date.today().isoformat()}.md"
TITLE = "Code questions of the never-seen sets, now development sets"
CHECK_TITLE = "Code questions of unseen4, the check set"
NOTES = """
A development figure: the sets' code items (cachetools and backoff of `unseen`, humanize of
`unseen2`, python-slugify and golang-lru of `unseen3`) were read while the code answers were
built (issue 32, item 4), so they measure the direction of a change; designs are decided on
them. Answer hit: a gold phrase in the direct answer (the answer's text, whose code lines
are quoted whole); previous: the checkout given by `--before`, asked in the same run. No
vectors (`ASKALONG_EMBEDDER=none`).
"""
CHECK_NOTES = """
The check set: `unseen4`'s code items (python-dotenv, fatih/color in Go), asked once per
design decided on the development sets (`code-answers-unseen-dev-*.md`), never tuned on.
Answer hit: a gold phrase in the direct answer; previous: the checkout given by `--before`,
asked in the same run. No vectors (`ASKALONG_EMBEDDER=none`).
"""


def code_items(name: str) -> list[Any]:
    """The items of set ``name`` asked of a repository (``doc_kind`` ``code_*``)."""
    from unseen_set import load_items, questions_of

    return [i for i in load_items(questions_of(name)) if i.doc_kind.startswith("code")]


def child(name: str, out: Path) -> None:
    """Set ``name``'s code items asked under a fresh home; the rows written to ``out``."""
    import unseen

    items = code_items(name)
    with tempfile.TemporaryDirectory(prefix="askalong-codeans-") as folder:
        home = Path(folder)
        os.environ["ASKALONG_EMBEDDER"] = "none"
        unseen.build(home, HERE / name / "docs", items, vectors=False)
        rows = unseen.ask_all(home, items, "product")
    for row, item in zip(rows, items, strict=True):
        row["set"] = name
        row["gold"] = list(item.gold)
        row["question"] = item.question or f"[{item.intent}] {item.selection}"
    out.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def asked(src: Path, name: str) -> list[dict[str, Any]]:
    """Set ``name``'s rows, asked by the checkout whose sources are ``src``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = {**os.environ, "PYTHONPATH": str(src)}
        command = [sys.executable, __file__, "--child", name, "--out", out.name]
        subprocess.run(command, env=env, check=True)
        rows: list[dict[str, Any]] = json.loads(Path(out.name).read_text(encoding="utf-8"))
    return rows


def cells(rows: Sequence[dict[str, Any]]) -> list[str]:
    covered = [r for r in rows if r["covered"]]
    uncovered = [r for r in rows if not r["covered"]]
    return [
        str(len(rows)),
        _share(covered, "answer_hit"),
        _share(covered, "passage_hit"),
        _share(covered, "refused"),
        _share(uncovered, "refused"),
    ]


def _share(rows: Sequence[dict[str, Any]], key: str) -> str:
    if not rows:
        return "—"
    hits = sum(1 for r in rows if r[key])
    return f"{hits}/{len(rows)} ({hits / len(rows):.2f})"


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
    head = ["group", "answerer", "n", "answer hit", "passage hit", "wrong refusals"]
    return markdown_table([*head, "uncovered refused"], "llrrrrr", body)


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
    parser.add_argument(
        "--check", action="store_true", help=f"ask the check sets {', '.join(CHECK_SETS)} alone"
    )
    parser.add_argument("--child", choices=SETS + CHECK_SETS, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.out)
        return
    here = Path(__file__).resolve().parents[1] / "src"
    sources = {"this checkout": here, **({"previous": args.before} if args.before else {})}
    sets = CHECK_SETS if args.check else SETS
    systems = {k: [r for s in sets for r in asked(src, s)] for k, src in sources.items()}
    command = "benchmarks/code_answers_unseen.py" + (
        f" --before {args.before}" if args.before else ""
    )
    command += " --check" if args.check else ""
    body = table(systems, sets)
    title, notes = (CHECK_TITLE, CHECK_NOTES) if args.check else (TITLE, NOTES)
    text = f"# {title} ({datetime.date.today().isoformat()})\n\n`{command}`\n\n{body}{notes}"
    if args.show:
        print(missed(systems["this checkout"]), file=sys.stderr)
    if args.write:
        write_results(text, CHECK_RESULT if args.check else RESULT, None)
    else:
        print(text)


if __name__ == "__main__":
    main()
