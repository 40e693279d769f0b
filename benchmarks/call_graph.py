"""The call graph against Python's ``ast`` (issue 27): callee and caller precision and
recall on standard-library packages the tests do not use (``json``, ``email``, ``http``,
``logging``, ``xml/dom``), for this checkout and, in the same run, for another source tree
(``--before /path/to/src``: the previous graph, run in a child with that tree first on the
path).

    PYTHONPATH=src python benchmarks/call_graph.py --before /work/main/src

The ground truth (``call_graph_truth.py``) counts only edges whose target the source
gives for certain; a predicted edge it lacks is a false positive (a guess), one it has and
the graph lacks a miss. Nodes are the blocks both know: top-level functions, classes and
their methods. Callers are asked of every node (``Repository.callers``), callees of every
function (``Repository.callees``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import markdown_table, write_results
from call_graph_truth import Edge, Node, modules_of, true_edges

PACKAGES = ("json", "email", "http", "logging", "xml/dom")
RESULT = "call-graph-2026-12-05.md"
NOTES = """
Goal (issue 27): callee precision ≥ 0.95, recall ≥ 0.90; caller precision ≥ 0.95, recall ≥ 0.85.
"before" is main's graph (`--before /work/main/src`), "after" this branch's, same run, same
ground truth (`benchmarks/call_graph_truth.py`, Python's `ast`). The packages are not used by
the tests (they use `asyncio`, `concurrent/futures`, `threading`).

What changed: a parameter or local (read with `ast` for Python, declaration patterns
elsewhere) is never a call target; `x.m()` binds only when the code gives `x`'s class
(`x = C()`, a module's `x = C()`, an annotation, a constructor's `self.x = C()`,
`C.m()` itself, an import under its own name or an alias, `super()` through the bases,
several levels deep);
in Python and JS/TS a bare name is its file's or an import's, never a same-named
definition elsewhere. Otherwise the call stays unresolved.

Limits: the ground truth follows the same conventions the graph now follows (a receiver
whose type the source does not give is no edge), so "after" near 1.0 says the graph no
longer guesses, not that it finds calls through untyped objects (those are unresolved on
both sides). Functions nested in functions are nodes of their own on both sides since
2026-12-05 (`outer.inner`: its calls are its own, a closure's parameter is no call; the
truth grew, json 20 → 30 edges). Java is measured against `javac` by
`call_graph_java.py`, JavaScript against acorn by `call_graph_js.py`, Go against
`go/ast` by `call_graph_go.py`.
"""


def stdlib_copy(into: Path, package: str) -> Path:
    import shutil

    source = Path(json.__file__).parent.parent / package
    target = into / package
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def predicted(
    root: Path, pattern: str = "*.py", keep: Callable[[Any, str], bool] | None = None
) -> tuple[set[Edge], set[Edge]]:
    """The graph's (callee edges, caller edges) over the ``pattern`` files under ``root``;
    with ``keep``, only those of the call sites it keeps (given the site and its file's
    relative path)."""
    from askalong.context.code_graph import Repository
    from askalong.parse.code.parser import parse

    try:
        from askalong.context.code_places import Place, SourceFile
    except ImportError:  # a tree from before they had a module of their own (--before)
        from askalong.context.code_graph import Place, SourceFile  # type: ignore[attr-defined,no-redef]

    files = []
    for path in sorted(root.rglob(pattern)):
        relative = path.relative_to(root).as_posix()
        if not path.read_bytes().strip():
            continue
        blocks = parse(path.read_bytes(), source=relative).blocks
        files.append(SourceFile(relative, relative, tuple(blocks)))
    repository = Repository(files)
    callees: set[Edge] = set()
    callers: set[Edge] = set()
    for file in files:
        for block in file.blocks:
            if not block.section_path:
                continue
            place = Place(file, block)
            node: Node = (file.source, block.section_path)
            found = repository.callees(place)
            callees.update((node, _node(t)) for s, t in found if not keep or keep(s, file.source))
            found = repository.callers(place)
            callers.update((_node(c), node) for s, c in found if not keep or keep(s, c.file.source))
    return callees, callers


def _node(place: object) -> Node:
    return (place.file.source, place.block.section_path)  # type: ignore[attr-defined]


def scores(truth: set[Edge], found: set[Edge], nodes: set[Node]) -> tuple[float, float, int]:
    """Precision and recall of ``found`` over edges between ``nodes``, and the truth's size."""
    truth = {e for e in truth if e[0] in nodes and e[1] in nodes}
    found = {e for e in found if e[0] in nodes and e[1] in nodes}
    hit = len(truth & found)
    return hit / max(len(found), 1), hit / max(len(truth), 1), len(truth)


def measure(root: Path) -> dict[str, list[float]]:
    from call_graph_truth import nodes_of

    modules = modules_of(root)
    truth = true_edges(modules)
    functions = {
        (m.path, q) for m, q, n in nodes_of(modules) if type(n).__name__.endswith("FunctionDef")
    }
    everything = {(m.path, q) for m, q, _ in nodes_of(modules)}
    callees, callers = predicted(root)
    # callee edges start at a function; caller edges too (a class body's calls are not asked)
    callee_truth = {e for e in truth if e[0] in functions}
    callees = {e for e in callees if e[0] in functions}
    return {
        "callees": list(scores(callee_truth, callees, everything)),
        "callers": list(scores(truth, {e for e in callers if e[0] in functions}, everything)),
    }


def measure_all(workdir: Path) -> dict[str, dict[str, list[float]]]:
    results = {}
    for package in PACKAGES:
        root = stdlib_copy(workdir / package.replace("/", "_"), package)
        results[package] = measure(root)
    return results


def before(source: str) -> dict[str, dict[str, list[float]]]:
    env = {**os.environ, "PYTHONPATH": source}
    child = subprocess.run(
        [sys.executable, __file__, "--json"], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(child.stdout)


def report(after: dict[str, dict[str, list[float]]], prior: dict | None) -> str:
    rows = []
    for package in PACKAGES:
        for label, result in (("before", prior), ("after", after)):
            if result is None:
                continue
            callee, caller = result[package]["callees"], result[package]["callers"]
            rows.append(
                [package, label, *(f"{v:.3f}" for v in (*callee[:2], *caller[:2])), str(callee[2])]
            )
    header = ["package", "graph", "callee P", "callee R", "caller P", "caller R", "true edges"]
    return markdown_table(header, "llrrrrr", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a source tree holding the previous askalong")
    parser.add_argument("--json", action="store_true", help="print this tree's figures as JSON")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        after = measure_all(Path(work))
    if args.json:
        print(json.dumps(after))
        return
    prior = before(args.before) if args.before else None
    intro = "# Call graph against Python's ast (2026-12-05)\n\n`" + " ".join(sys.argv) + "`\n\n"
    write_results(intro + report(after, prior) + NOTES, RESULT, args.out)


if __name__ == "__main__":
    main()
