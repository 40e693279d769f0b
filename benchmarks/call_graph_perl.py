"""The call graph on Perl against ``B::Xref`` (issue 32): callee and caller precision and
recall on pure-Perl modules of the system's Perl the tests do not use. The ground truth
is Perl's own compiler: ``perl -MO=Xref,-r FILE`` lists every sub each sub calls by name
(``f()``, ``&f``, ``f $x``, ``Pkg::f()``), resolved to the package it is compiled in; a
method call (``$obj->m``, ``Pkg->m``) is dispatched at run time and is on no side: the
graph leaves its edges from a ``->`` call out of the score. Nodes are the named subs
both know (``Pkg::name``, as the graph names its blocks: (package, name)); a sub of the
``main`` package is the graph's bare name. Scores as in ``call_graph.py``.

    PYTHONPATH=src python benchmarks/call_graph_perl.py
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from call_graph import Node, predicted
from call_graph_js import graph_nodes, publish, score_row
from call_graph_truth import Edge

ROOT = Path("/usr/share/perl/5.36")
PACKAGES = ("Text", "Getopt", "File", "Pod/Simple")
RESULT = "call-graph-perl-2026-12-07.md"
NOTES = """
Goal (issue 27's, for every grammar): callee precision ≥ 0.95, recall ≥ 0.90; caller
precision ≥ 0.95, recall ≥ 0.85. Corpus: the pure-Perl modules of Debian's perl 5.36 under
`/usr/share/perl/5.36` (`Text/`: Balanced, Wrap, ParseWords, Abbrev, Tabs; `Getopt/`: Long,
Std; `File/`: Temp, Copy, Find, Path, Basename, …; `Pod/Simple/`: 28 files). The truth is
`B::Xref`'s raw listing (`perl -MO=Xref,-r`): a `subused` row is a call whose target the
compiler bound by name; only edges between subs of the package's own files are scored.
Method calls (`->`) are on neither side: Perl binds them at run time (the graph binds
`$self->m` to its package or a parent, `Pkg->m` to `Pkg`; `tests/unit/test_call_graph_perl.py`).
Main had no Perl grammar: no nodes, no edges (0 everywhere, same run).

The graph's edges the truth lacks are calls in the source the compiler does not list:
calls inside an anonymous sub (`my $closure = sub { _fail(...) }`: the truth's caller is
`__ANON__`, the graph's the named sub around it; Text, 3), `goto &mkpath` (File 2, Pod::Simple
2), and calls compiled away behind a constant (`DEBUG and print pretty(...)`,
`_IS_MSWIN32 ? _slash_lc($p) : $p`; Pod::Simple 5, File 1). Its misses: calls inside a
substitution's `/e` code (Text 1, Pod::Simple 1), which the grammar reads as a string. A sub
called as a bareword (`my $h = output_h;`) is a call as a statement or a value assigned
(Getopt's recall 0.714 without, 1.000 with, no edge the truth lacks gained anywhere).
"""
# One ``perl -MO=Xref,-r`` row: file, the sub the use is in, line, package, kind, name, event.
_ROW = re.compile(r"^(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s+&\s+(\S+)\s+(subused|subdef)\s*$")


def node_name(package: str, name: str) -> tuple[str, ...]:
    return (name,) if package == "main" else (package, name)


def xref(root: Path, file: str) -> list[tuple[str, str, int, str, str, str]]:
    """The raw ``B::Xref`` rows of ``file`` compiled alone (its ``use``s loaded from the
    system's Perl): (file, sub, line, package, name, event)."""
    command = ["perl", f"-I{root}", "-MO=Xref,-r", str(root / file)]
    text = subprocess.run(command, capture_output=True, text=True, cwd=root).stdout
    rows = []
    for line in text.splitlines():
        found = _ROW.match(line)
        if found:
            path, sub, number, package, name, event = found.groups()
            rows.append((path, sub, int(number), package, name, event))
    return rows


def true_graph(root: Path, files: list[str]) -> tuple[set[Edge], set[Node], set[Node]]:
    """The truth's edges, its function nodes and all its nodes, over ``files``."""
    absolute = {str(root / f): f for f in files}
    defined: dict[tuple[str, ...], str] = {}
    uses: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    for file in files:
        for path, sub, line, package, name, event in xref(root, file):
            if path not in absolute or not 0 < line < 2**31 - 1:  # the compiler's own subs
                continue
            if event == "subdef":
                defined.setdefault(node_name(package, name), absolute[path])
            elif not sub.startswith("(") and not sub.endswith("__ANON__"):  # a named sub's
                owner, _, own = sub.rpartition("::")
                caller = node_name(owner or "main", own)
                uses.append((absolute[path], caller, node_name(package, name)))
    nodes = {(f, q) for q, f in defined.items()}
    edges = {
        ((f, caller), (defined[callee], callee))
        for f, caller, callee in uses
        if (f, caller) in nodes and callee in defined and callee != caller
    }
    return edges, nodes, nodes


def called_by_name(root: Path) -> Callable[[Any, str], bool]:
    """Whether a call site of a file under ``root`` calls by name, not with ``->``."""
    lines: dict[str, list[str]] = {}

    def keep(site: Any, source: str) -> bool:
        if source not in lines:
            lines[source] = (
                (root / source).read_text(encoding="utf-8", errors="replace").split("\n")
            )
        text = lines[source][site.line - 1]
        return re.search(rf"->\s*(?:SUPER::)?{re.escape(site.callee)}\b", text) is None

    return keep


def measure(root: Path, package: str) -> list[str]:
    base = root / package
    files = [p.relative_to(root).as_posix() for p in sorted(base.rglob("*.pm"))]
    truth = true_graph(root, files)
    callees, callers = predicted(base, "*.pm", called_by_name(base))
    prefix = package + "/"
    callees = {((prefix + a, x), (prefix + b, y)) for (a, x), (b, y) in callees}
    callers = {((prefix + a, x), (prefix + b, y)) for (a, x), (b, y) in callers}
    return score_row(package, files, truth, graph_nodes(root, files), (callees, callers))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the system Perl's library")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [measure(args.root, package) for package in PACKAGES]
    publish("Call graph on Perl against B::Xref", rows, NOTES, RESULT, args.out, "2026-12-07")


if __name__ == "__main__":
    main()
