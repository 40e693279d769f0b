"""The house's layering, read from the source with ``ast``: no import cycle, no upward import.

Every ``import`` and ``from ... import`` counts, at any depth: inside functions (lazy
imports) and under ``if TYPE_CHECKING:`` (a type is a dependency too). An edge A -> B
means that running A may run B:

- ``import a.b.c`` and ``from a.b.c import name`` lead to ``a.b.c``; ``from a.b import c``
  leads to ``a.b.c`` when ``c`` is a module, else to ``a.b`` (a name of its ``__init__``);
- they also lead to the target's enclosing packages, whose ``__init__`` Python runs first,
  except those enclosing the importer itself: Python has started those before the importer
  runs, so the edge would say nothing (``askalong.cli.ask`` importing ``askalong.cli.output``
  does not need ``askalong.cli``'s ``__init__`` to have finished). A child that reads a name
  from its own package's ``__init__`` is a named target and so still makes a cycle.

Imports by string (``importlib.import_module``: the parse guard's parser table) are not
seen; they name parse modules only.

The same holds one level up: folding every module into its top-level package or module
under ``askalong`` (``askalong.store.sqlite.rows`` into ``askalong.store``), the packages
import one another without a cycle, so each stands on a floor above all it imports. A lazy
import counts here too, with no exception: it runs when its function is called, so a
package that imports another inside a function still needs it (the store needs no package
that needs the store).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from conftest import REPO

Graph = dict[str, frozenset[str]]

PACKAGE = "askalong"
SOURCE = REPO / "src" / PACKAGE

# The pure stages compute over values; they never open the store or reach an edge.
PURE_STAGES = (
    "askalong.text",
    "askalong.question",
    "askalong.chunk",
    "askalong.context",
    "askalong.retrieve.ranking",
    "askalong.retrieve.policy",
    "askalong.retrieve.fusion",
    "askalong.retrieve.cutoff",
    "askalong.retrieve.followup",
    "askalong.retrieve.pages",
    "askalong.verify",
    "askalong.answer",
    "askalong.parse",
)
STORE_AND_EDGES = (
    "askalong.store",
    "askalong.server",
    "askalong.cli",
    "askalong.library",
    "askalong.asking",
    "askalong.agent",
    "askalong.ingest",
    "askalong.index",
)
# Each edge owns its framework: the HTTP stack is the server's (uvicorn also the serve
# command's, which runs it); the terminal stack is the command line's.
FRAMEWORK_HOMES = {
    "fastapi": ("askalong.server",),
    "starlette": ("askalong.server",),
    "pydantic": ("askalong.server",),
    "uvicorn": ("askalong.server", "askalong.cli"),
    "click": ("askalong.cli",),
    "rich": ("askalong.cli",),
}


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name (a package by its own)."""
    files = {}
    for path in sorted(root.rglob("*.py")):
        parts = (package, *path.relative_to(root).with_suffix("").parts)
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def imported_names(module: str, path: Path) -> Iterator[tuple[str, str | None]]:
    """(module, imported name or None) for each import statement, at any depth."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path, node)
            yield from ((base, alias.name) for alias in node.names)


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = here[: len(here) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _enclosing(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def targets(module: str, path: Path, modules: Iterable[str]) -> frozenset[str]:
    """The package's modules that running ``module`` may run (see the module docstring)."""
    known = set(modules)
    found: set[str] = set()
    for base, name in imported_names(module, path):
        target = f"{base}.{name}" if f"{base}.{name}" in known else base
        if target in known:
            found |= {target} | (_enclosing(target) - _enclosing(module))
    return frozenset(found - {module})


def import_graph(root: Path, package: str) -> Graph:
    files = module_files(root, package)
    return {module: targets(module, path, files) for module, path in files.items()}


@cache
def askalong_graph() -> Graph:
    return import_graph(SOURCE, PACKAGE)


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the components in reverse topological order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[list[str]] = []
    for start in sorted(graph):
        if start not in index:
            _visit(graph, start, index, low, stack, components)
    return components


def _visit(
    graph: Graph,
    start: str,
    index: dict[str, int],
    low: dict[str, int],
    stack: list[str],
    components: list[list[str]],
) -> None:
    index[start] = low[start] = len(index)
    stack.append(start)
    work = [(start, iter(sorted(graph[start])))]
    while work:
        node, edges = work[-1]
        child = next((e for e in edges if e not in index or e in stack), None)
        if child is None:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                components.append(_pop_component(stack, node))
        elif child in index:
            low[node] = min(low[node], index[child])
        else:
            index[child] = low[child] = len(index)
            stack.append(child)
            work.append((child, iter(sorted(graph[child]))))


def _pop_component(stack: list[str], root: str) -> list[str]:
    component = stack[stack.index(root) :]
    del stack[stack.index(root) :]
    return sorted(component)


def path_to(graph: Graph, start: str, goal: Callable[[str], bool]) -> list[str] | None:
    """The shortest import chain from ``start`` to a module ``goal`` accepts, if any."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child in came_from or child == start:
                    continue
                came_from[child] = node
                if goal(child):
                    return _chain(came_from, start, child)
                following.append(child)
        frontier = following
    return None


def _chain(came_from: dict[str, str], start: str, end: str) -> list[str]:
    chain = [end]
    while chain[-1] != start:
        chain.append(came_from[chain[-1]])
    return chain[::-1]


def cycle_in(graph: Graph, component: list[str]) -> list[str]:
    """One concrete cycle through the component's first module, for the failure message."""
    inside = set(component)
    within = {node: graph[node] & inside for node in component}
    chain = path_to(within, component[0], lambda node: component[0] in within[node])
    return [*(chain or [component[0]]), component[0]]


def top_level(module: str) -> str:
    """The top-level package or module of ``askalong`` that holds ``module`` (the package's
    own ``__init__`` is itself)."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: Graph) -> Graph:
    """The top-level packages and modules, an edge where a module of one imports one of another."""
    edges: dict[str, set[str]] = {}
    for module, found in graph.items():
        edges.setdefault(top_level(module), set()).update(map(top_level, found))
    return {node: frozenset(found - {node}) for node, found in edges.items()}


def explained(graph: Graph, cycle: list[str]) -> str:
    """A package cycle with one module import that makes each of its steps."""
    return "\n".join(f"{a} -> {b}: {_witness(graph, a, b)}" for a, b in pairwise(cycle))


def _witness(graph: Graph, source: str, target: str) -> str:
    # Reverse order names the module imported before the packages enclosing it.
    return next(
        f"{module} imports {found}"
        for module in sorted(graph)
        if top_level(module) == source
        for found in sorted(graph[module], reverse=True)
        if top_level(found) == target
    )


def under(module: str, prefixes: Iterable[str]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def reaches(graph: Graph, sources: Iterable[str], forbidden: Iterable[str]) -> list[str]:
    """One ``a -> b -> c`` line per source module that reaches a forbidden one."""
    banned = tuple(forbidden)
    chains = (path_to(graph, source, lambda m: under(m, banned)) for source in sorted(sources))
    return [" -> ".join(chain) for chain in chains if chain]


def third_party_imports(root: Path, package: str) -> Iterator[tuple[str, str]]:
    """(module, top-level distribution module) for every import outside the stdlib."""
    for module, path in module_files(root, package).items():
        for base, _name in imported_names(module, path):
            top = base.split(".")[0]
            if top and top not in sys.stdlib_module_names and top not in (package, "__future__"):
                yield module, top


def test_the_graph_is_the_whole_package() -> None:
    graph = askalong_graph()
    assert len(graph) > 100
    assert "askalong.server.app" in graph["askalong.cli.serve"]  # imported inside a function


def test_no_import_cycle() -> None:
    graph = askalong_graph()
    cycles = [cycle_in(graph, c) for c in strongly_connected(graph) if len(c) > 1]
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_import_cycle_between_packages() -> None:
    graph = askalong_graph()
    packages = package_graph(graph)
    knots = [c for c in strongly_connected(packages) if len(c) > 1]
    assert not knots, "\n\n".join(
        f"{len(knot)} packages import one another: {', '.join(knot)}; one cycle:\n"
        + explained(graph, cycle_in(packages, knot))
        for knot in knots
    )


@pytest.mark.parametrize("stage", PURE_STAGES)
def test_pure_stages_never_reach_the_store_or_an_edge(stage: str) -> None:
    graph = askalong_graph()
    chains = reaches(graph, (m for m in graph if under(m, [stage])), STORE_AND_EDGES)
    assert not chains, f"{stage} reaches the store or an edge:\n" + "\n".join(chains)


def test_reading_a_question_stands_on_text_alone() -> None:
    """The question is read once, below every stage that reads it (``context``, ``answer``,
    ``verify``, ``asking``, ``agent``), which all import ``question``; it imports ``text`` only."""
    packages = package_graph(askalong_graph())
    assert packages["askalong.question"] <= {"askalong.text"}
    readers = ("context", "answer", "verify", "asking", "agent")
    assert all("askalong.question" in packages[f"askalong.{name}"] for name in readers)


def test_wire_reaches_nothing_of_evaluate() -> None:
    chains = reaches(askalong_graph(), ["askalong.wire"], ["askalong.evaluate"])
    assert not chains, "the JSON forms depend on the evaluation harness:\n" + "\n".join(chains)


def test_frameworks_stay_at_their_edges() -> None:
    strays = sorted(
        f"{module} imports {top}"
        for module, top in third_party_imports(SOURCE, PACKAGE)
        if top in FRAMEWORK_HOMES and not under(module, FRAMEWORK_HOMES[top])
    )
    assert not strays, "\n".join(strays)


def test_the_checks_see_lazy_and_type_only_imports_and_cycles(tmp_path: Path) -> None:
    """The machinery on a package made here, so it is known to work when the house is clean."""
    files = {
        "__init__.py": "",
        "low.py": "def late():\n    from pkg.high import main\n",
        "high.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import low\n",
        "edge/__init__.py": "from pkg.edge.app import run\n",
        "edge/app.py": "from pkg.edge.deps import x\nimport fastapi\n",
        "edge/deps.py": "from ..low import late\n",
        "outside.py": "import pkg.edge.deps\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.high"] == {"pkg.low"}
    assert graph["pkg.edge.app"] == {"pkg.edge.deps"}  # its own package is no edge
    assert graph["pkg.outside"] == {"pkg.edge", "pkg.edge.deps"}  # another's package is
    components = [c for c in strongly_connected(graph) if len(c) > 1]
    assert components == [["pkg.high", "pkg.low"]]
    assert cycle_in(graph, components[0]) == ["pkg.high", "pkg.low", "pkg.high"]
    assert reaches(graph, ["pkg.edge.deps"], ["pkg.high"]) == [
        "pkg.edge.deps -> pkg.low -> pkg.high"
    ]
    assert list(third_party_imports(tmp_path, "pkg")) == [("pkg.edge.app", "fastapi")]


def test_packages_can_close_a_cycle_their_modules_do_not(tmp_path: Path) -> None:
    """Modules without a cycle, packages with one: ``a.x -> b.y`` and, lazily, ``b.z -> a.w``."""
    files = {
        "__init__.py": "",
        "a/__init__.py": "",
        "a/x.py": "from pkg.b.y import f\n",
        "a/w.py": "",
        "b/__init__.py": "",
        "b/y.py": "",
        "b/z.py": "def late():\n    from pkg.a import w\n",
        "c.py": "import pkg.a.x\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path, "pkg")
    assert not [c for c in strongly_connected(graph) if len(c) > 1]
    packages = package_graph(graph)
    assert packages == {
        "pkg": frozenset(),
        "pkg.a": frozenset({"pkg.b"}),
        "pkg.b": frozenset({"pkg.a"}),
        "pkg.c": frozenset({"pkg.a"}),
    }
    (component,) = [c for c in strongly_connected(packages) if len(c) > 1]
    assert explained(graph, cycle_in(packages, component)) == (
        "pkg.a -> pkg.b: pkg.a.x imports pkg.b.y\npkg.b -> pkg.a: pkg.b.z imports pkg.a.w"
    )
