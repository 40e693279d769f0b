""" "Which paths does this trigger?" (pure): the calls from an entry function, as a tree.

Each node is a function of the repository (a citation: its document, block and lines)
reached by a call, or by being passed as a callback, from its parent; the walk goes
``depth`` levels down at most, a function already on the path is shown once more and cut
(a cycle), and the whole tree holds at most ``max_nodes`` nodes. An entry that reaches
no function of the repository keeps its own call lines as ``outside`` (a library's, an
alias the graph does not follow: Lua's ``local merge = tablex.merge``): they are what it
calls all the same, where the tree alone would be its own line. Offline, the answer is
one ``node_line`` per node, then those call lines (``asking/call_paths``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import islice

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place

DEPTH = 3
MAX_NODES = 60
MAX_OUTSIDE = 8  # the entry's call lines reaching no function of the repository


@dataclass(frozen=True)
class CallNode:
    place: Place
    depth: int
    line: int | None = None  # where the parent calls it
    cut: str = ""  # "cycle" (already on the path) or "" (walked, or at the depth limit)
    children: tuple[CallNode, ...] = ()
    # an entry reaching no function of the repository: its own call lines (a library's,
    # an alias), what it calls all the same, quoted under it
    outside: tuple[int, ...] = ()


def call_tree(
    repository: Repository, entry: Place, *, depth: int = DEPTH, max_nodes: int = MAX_NODES
) -> CallNode:
    budget = [max_nodes - 1]
    root = _node(repository, entry, 0, None, (entry.key,), depth, budget)
    if root.children or depth <= 0:
        return root
    outside = tuple(site.line for site in islice(repository.unresolved(entry), MAX_OUTSIDE))
    return replace(root, outside=outside)


def _node(
    repository: Repository,
    place: Place,
    level: int,
    line: int | None,
    path: tuple[tuple[str, str], ...],
    depth: int,
    budget: list[int],
) -> CallNode:
    if level >= depth:
        return CallNode(place, level, line)
    children = []
    for site, callee in repository.callees(place):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        if callee.key in path:
            children.append(CallNode(callee, level + 1, site.line, cut="cycle"))
            continue
        child = _node(repository, callee, level + 1, site.line, (*path, callee.key), depth, budget)
        children.append(child)
    return CallNode(place, level, line, children=tuple(children))


def walk(node: CallNode) -> list[CallNode]:
    """The nodes in reading order (depth first)."""
    return [node, *(n for child in node.children for n in walk(child))]


def node_line(node: CallNode) -> str:
    """``  Class.method  path:12-30`` (``(cycle)`` when cut), indented by depth."""
    place = node.place
    lines = place.block.lines or (0, 0)
    where = f"{place.file.where}:{lines[0]}-{lines[1]}"
    cut = " (cycle)" if node.cut else ""
    return f"{'  ' * node.depth}{'.'.join(place.qualname)}  {where}{cut}"
