"""Call-path questions on code (pure): "which paths does this trigger?", "what does this
call?", "调用了哪些…?" asked at lines of a source file are answered from the call tree of
the enclosing function (``call_tree.py``), not from search.

Each node of the tree is a context unit: the function's signature and first lines, its
definition line cited (the root, the entry function, whole, as any code anchor). A node
met twice (a cycle) is the same unit.
"""

from __future__ import annotations

from dataclasses import replace

from askalong.context.call_tree import CallNode, walk
from askalong.context.code import CALLEE_LINES, head_span, line_span, place_unit
from askalong.context.units import ContextUnit
from askalong.types import BlockSpan


def tree_units(tree: CallNode, anchor_unit: ContextUnit) -> list[ContextUnit]:
    """The tree's functions as units, in reading order, each once: the entry function is
    ``anchor_unit``; every other its head with its definition line cited."""
    units = {tree.place.key: anchor_unit}
    for node in walk(tree):
        if node.place.key not in units:
            units[node.place.key] = _node_unit(node)
    return list(units.values())


def node_unit(node: CallNode, units: list[ContextUnit]) -> ContextUnit:
    """The unit of ``node`` among ``tree_units``' (by document and block)."""
    document_id, block_id = node.place.key
    return next(
        u for u in units if u.document_id == document_id and u.spans[0].block_id == block_id
    )


_LEAD = ("@", "#", "//", "/*", "*")  # decorators and comments above a definition


def definition_span(node: CallNode) -> BlockSpan:
    """The node's definition line (its ``def``/``func``/``class`` line: the block's
    first line that is not a decorator nor its leading comment), as a span of its block."""
    block = node.place.block
    first = block.lines[0] if block.lines else 1
    rows = block.text.split("\n")
    offset = next(
        (i for i, row in enumerate(rows) if row.strip() and not row.lstrip().startswith(_LEAD)),
        0,
    )
    start, end = line_span(block, first + offset)
    return BlockSpan(block.id, start, end)


def _node_unit(node: CallNode) -> ContextUnit:
    unit = place_unit(node.place, *head_span(node.place.block, CALLEE_LINES))
    return replace(unit, cited_spans=(definition_span(node),))
