"""How much CPU a CLI call costs before it does its work: ``askalong --help``, ``docs`` and
``ask`` (one question on a 8-page paper, without and with ``--doc``), each as a whole
process, beside ``python -c pass``, for one or more source trees in the same run (the
arms interleaved call by call, so a noisy machine loads them alike). CPU time (user +
system of the child), not wall. Then ``askalong serve``'s idle memory on the same home,
beside ``python -c pass`` and a bare Starlette app, the first answer asked of it, and the
CPU of an ask answered by it
(``_serve_memory.py``).

    python benchmarks/startup.py --tree new=src --tree main=/path/to/main/src [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _serve_memory import bare_app_mb, only_document, peak_of_pass, serve_figures
from _table import markdown_table, write_results

PAPER = "pdf/en_2col/N18-3011.pdf"
QUESTION = "What does the literature graph contain?"
# The console script beside this interpreter; PYTHONPATH picks the tree it imports.
ASKALONG = str(Path(sys.executable).parent / "askalong")
CALLS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "askalong --help": [ASKALONG, "--help"],
    "askalong docs": [ASKALONG, "docs"],
    "askalong ask": [ASKALONG, "ask", QUESTION],
    "askalong ask --doc DOC": [ASKALONG, "ask", QUESTION, "--doc"],  # + the home's document
}


def cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    """User + system CPU of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def child_env(src: Path, home: Path) -> dict[str, str]:
    """The child's environment: ``src`` first on the path, bytecode cached as an installed
    package has it (a shell's PYTHONDONTWRITEBYTECODE would recompile every module at
    every call: ~0.6 CPU-s of an ``ask``)."""
    env = {**os.environ, "PYTHONPATH": str(src), "ASKALONG_HOME": str(home)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(trees: dict[str, Path], runs: int, home: Path) -> dict[tuple[str, str], list[float]]:
    seconds: dict[tuple[str, str], list[float]] = {}
    documents = {t: only_document(ASKALONG, child_env(src, home / t)) for t, src in trees.items()}
    for _ in range(runs):
        for label, args in CALLS.items():
            for tree, src in trees.items():
                env = child_env(src, home / tree)
                document = [documents[tree]] if args[-1] == "--doc" else []
                taken = cpu_seconds([*args, *document], env)
                seconds.setdefault((label, tree), []).append(taken)
    return seconds


def prepare(home: Path, src: Path, evaldata: Path) -> None:
    """The paper added, and one warm-up ask per tree so each start finds its caches made."""
    env = child_env(src, home)
    add = [ASKALONG, "add", str(evaldata / PAPER)]
    subprocess.run(add, env=env, check=True, capture_output=True)


SERVE_ROWS = (  # each figure with its format
    ("serve idle RSS, MB", ".0f"),
    ("its children (page renderer, resource tracker), MB", ".0f"),
    ("first answer asked of it, server CPU-s", ".2f"),
    ("serve RSS after that answer, MB", ".0f"),
    ("askalong ask --doc DOC, serve up: the ask's own CPU-s", ".2f"),
    ("askalong ask (no --doc), serve up: the ask's own CPU-s", ".2f"),
)


def measure_serve(trees: dict[str, Path], runs: int, home: Path) -> list[list[str]]:
    """The serve rows, then the anchors' (one figure for every tree), medians of ``runs``."""
    figures: dict[str, list[list[float]]] = {tree: [] for tree in trees}
    anchors: list[tuple[float, float]] = []
    for _ in range(runs):
        anchors.append((peak_of_pass(), bare_app_mb(home)))
        for tree, src in trees.items():
            env = child_env(src, home / tree)
            figures[tree].append(serve_figures(ASKALONG, env, home / tree, QUESTION))
    rows = [
        [label, *(f"{statistics.median(f[i] for f in figures[t]):{form}}" for t in trees)]
        for i, (label, form) in enumerate(SERVE_ROWS)
    ]
    for i, label in enumerate(("python -c pass, peak RSS MB", "bare Starlette app, RSS MB")):
        rows.append([label, *[f"{statistics.median(a[i] for a in anchors):.0f}"] * len(trees)])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", required=True, help="LABEL=SRC_DIR")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--serve-runs", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    trees = {t.split("=", 1)[0]: Path(t.split("=", 1)[1]).resolve() for t in args.tree}
    evaldata = Path(os.environ.get("ASKALONG_EVALDATA", "../shared/evaldata"))
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        for tree, src in trees.items():  # a home each: their caches (engine choice, graph)
            prepare(home / tree, src, evaldata)  # differ by version and would evict each other
            env = child_env(src, home / tree)
            subprocess.run(CALLS["askalong ask"], env=env, check=True, capture_output=True)
        seconds = measure(trees, args.runs, home)
        serve_rows = measure_serve(trees, args.serve_runs, home)
    rows = [
        [label, *(f"{statistics.median(seconds[(label, tree)]):.2f}" for tree in trees)]
        for label in CALLS
    ]
    load = os.getloadavg()[0]
    text = (
        f"# CLI start-up, CPU seconds per call (median of {args.runs})\n\n"
        f"{time.strftime('%Y-%m-%d')}, load {load:.1f} at the end on {os.cpu_count()} cores; "
        "every call a fresh process on its tree's home (caches made by a warm-up call), "
        "bytecode cached as installed.\n\n"
        + markdown_table(["call", *trees], "l" + "r" * len(trees), rows)
        + f"\n## askalong serve, idle once ready (median of {args.serve_runs})\n\n"
        "Started on the same home (the paper added), ready once it has announced itself, "
        "read 3 s later; then one `askalong ask --doc`, answered by that server; then the "
        "CPU of the ask process alone for one more ask with `--doc` and one without (a tree "
        "whose ask does not reach the server answers it in its own process).\n\n"
        + markdown_table(["figure", *trees], "l" + "r" * len(trees), serve_rows)
    )
    write_results(text, f"startup-{time.strftime('%Y-%m-%d')}.md", args.out)


if __name__ == "__main__":
    main()
