"""Code questions answered (issues 27, 32): right / refused / wrong per kind, for this
checkout and the previous answerer (``--before /path/to/src``) in the same run.

    PYTHONPATH=src python benchmarks/code_answers.py --before /work/main/src

The set (``code_answers/questions.jsonl``, 68 questions, 15 in Chinese) was written from
reading the sources, before any run, over three repositories no test uses: the standard
library's ``json`` package (Python), ``github.com/google/uuid`` (Go, Debian's
golang-github-google-uuid-dev) and ``node-semver`` (JavaScript, Debian's node-semver),
both fetched with ``apt-get download`` into ``--cache``. Each repository is added to a
fresh home without vectors (``add --no-embed``) and every question asked through the
CLI (``ask --json``, anchored with ``--at file:line`` where it gives ``at``).

A covered question is right when it is answered and every gold string is in the answer
or its quotes; refused when not covered; wrong otherwise. An uncovered one (naming what
the repository does not define) is right when refused.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import markdown_table, write_results

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "code_answers" / "questions.jsonl"
RESULT = "code-answers-2026-12-05.md"
PACKAGES = {
    "go-uuid": ("golang-github-google-uuid-dev", "usr/share/gocode/src/github.com/google/uuid"),
    "js-semver": ("node-semver", "usr/share/nodejs/semver"),
}
NOTES = """
Read honestly: the questions and their gold were written from the sources before any run,
but this branch's line picking was then revised on the same set (the governing line and the
lines after a selection, code before comments, a definition's own lines first, references
for "used", the definition line below its comment). Its first run, before those revisions,
was 51 of 68 right (0.75), 2 refused, 15 wrong; the figure above is a development figure,
not a held-out one. Since 2026-12-05 functions nested in functions are symbols, so the
question naming `_iterencode_dict` (nested in `_make_iterencode`) is answered from its own
lines, and a named identifier is found through the store's symbol index (no longer a read of
every code document). Not right: "how does parse reject a version that is too long" quotes
the first `version` checks, not `version.length > MAX_LENGTH` ("long" is not "length").
"""
SHOW = "--show" in sys.argv  # print each answer not right (to stderr)
KINDS = (
    "callers",
    "usage",
    "callees",
    "definition",
    "about-anchored",
    "about-named",
    "uncovered",
)


def repositories(cache: Path) -> dict[str, Path]:
    """Each repository's folder: the stdlib's ``json``, and the two Debian packages."""
    found = {"python-json": _stdlib_json(cache)}
    for name, (package, inside) in PACKAGES.items():
        root = cache / package
        if not (root / inside).is_dir():
            root.mkdir(parents=True, exist_ok=True)
            subprocess.run(["apt-get", "download", package], cwd=root, check=True, timeout=300)
            deb = next(root.glob(f"{package}_*.deb"))
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True, timeout=120)
        found[name] = root / inside
    return found


def _stdlib_json(cache: Path) -> Path:
    target = cache / "python-json"
    if not target.is_dir():
        source = Path(json.__file__).parent
        shutil.copytree(source, target / "json", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def answers(folder: Path, questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Asked in this process (the child's): the repository added to a fresh home."""
    from click.testing import CliRunner

    from askalong.cli import main

    runner = CliRunner()
    added = runner.invoke(main, ["add", "--no-embed", str(folder), "--json"])
    assert added.exit_code == 0, added.output
    out = []
    for item in questions:
        args = ["ask", item["question"], "--json"]
        if "at" in item:
            args[1:1] = ["--at", _at(folder, *item["at"])]
        result = runner.invoke(main, args)
        out.append(json.loads(result.stdout) if result.exit_code == 0 else {"status": "error"})
    return out


def _at(folder: Path, relative: str, text: str) -> str:
    rows = (folder / relative).read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(rows, 1) if text in row)
    return f"{relative}:{line}"


def verdict(item: dict[str, Any], answer: dict[str, Any]) -> str:
    status = answer.get("status")
    if not item["covered"]:
        return "right" if status == "not_covered" else "wrong"
    if status == "not_covered":
        return "refused"
    said = "\n".join([answer.get("answer", ""), *(q["text"] for q in answer.get("quotes", []))])
    return "right" if status == "answered" and all(g in said for g in item["gold"]) else "wrong"


def run_tree(cache: Path) -> list[str]:
    """This process's verdicts, question by question (each repository in its own home)."""
    questions = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    folders = repositories(cache)
    verdicts: dict[int, str] = {}
    for repo, folder in folders.items():
        mine = [(i, q) for i, q in enumerate(questions) if q["repo"] == repo]
        with tempfile.TemporaryDirectory() as home:
            os.environ["ASKALONG_HOME"] = home
            got = answers(folder, [q for _, q in mine])
        for (i, q), a in zip(mine, got, strict=True):
            verdicts[i] = verdict(q, a)
            if SHOW and verdicts[i] != "right":
                said = a.get("answer", "").replace("\n", " | ")[:240]
                print(f"{verdicts[i]}: {q['question']} -> {said}", file=sys.stderr)
    return [verdicts[i] for i in range(len(questions))]


def in_child(source: str, cache: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": source}
    child = subprocess.run(
        [sys.executable, __file__, "--json", "--cache", str(cache)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(child.stdout.strip().splitlines()[-1])


def table(questions: list[dict[str, Any]], runs: dict[str, list[str]]) -> str:
    rows = []
    groups = [(k, [q["kind"] == k for q in questions]) for k in KINDS]
    groups.append(
        ("Chinese", [any("\u4e00" <= c <= "\u9fff" for c in q["question"]) for q in questions])
    )
    groups.append(("all", [True] * len(questions)))
    for name, member in groups:
        for label, verdicts in runs.items():
            count = Counter(v for v, m in zip(verdicts, member, strict=True) if m)
            n = sum(member)
            rows.append(
                [
                    name,
                    label,
                    str(n),
                    *(f"{count[k]} ({count[k] / n:.2f})" for k in ("right", "refused", "wrong")),
                ]
            )
    return markdown_table(["kind", "answerer", "n", "right", "refused", "wrong"], "llrrrr", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a source tree holding the previous answerer")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "code-answers")
    parser.add_argument("--json", action="store_true", help="print this tree's verdicts")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--show", action="store_true", help="print the answers not right")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.json:
        print(json.dumps(run_tree(args.cache)))
        return
    questions = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    runs = {}
    if args.before:
        runs["previous (main)"] = in_child(args.before, args.cache)
    runs["this branch"] = run_tree(args.cache)
    covered = [v for v, q in zip(runs["this branch"], questions, strict=True) if q["covered"]]
    intro = (
        "# Code questions answered (2026-12-05)\n\n`" + " ".join(sys.argv) + "`\n\n"
        f"Wrongly refused (covered questions refused), this branch: "
        f"{covered.count('refused')} of {len(covered)}.\n\n"
    )
    write_results(intro + table(questions, runs) + NOTES, RESULT, args.out)


if __name__ == "__main__":
    main()
