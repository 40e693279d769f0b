"""A definition's own lines (pure): a function with definitions nested in it is split
around them (``parse/code/parser.py``) into its header block and a block after each nested
one, all of its section; its calls, parameters and locals are read from all of them, and a
nested function also sees the names its enclosing functions bind (a closure's ``request``
is the outer function's parameter, never the module's ``request``).
"""

from __future__ import annotations

from collections.abc import Callable

from askalong.context.code_scope import bound_names
from askalong.types import Block


def own_blocks(blocks: tuple[Block, ...], qualname: tuple[str, ...]) -> tuple[Block, ...]:
    """The blocks of a file whose section is exactly ``qualname``, in reading order."""
    return tuple(b for b in blocks if b.section_path == qualname) if qualname else ()


def own_text(blocks: tuple[Block, ...], block: Block) -> str:
    """``block``'s definition's own lines, nested definitions left out: the texts of its
    blocks joined (the block's own text when it is the only one, or at top level)."""
    own = own_blocks(blocks, block.section_path)
    return "\n".join(b.text for b in own) if len(own) > 1 else block.text


def scope_bound(
    language: str, blocks: tuple[Block, ...], block: Block, is_class: Callable[[Block], bool]
) -> frozenset[str]:
    """The names ``block``'s function and the functions around it bind (parameters,
    locals), read from each one's own lines; a class around it binds none (its fields are
    ``self.x`` / ``this.x``, or typed as fields by ``code_scope.field_type``)."""
    names = bound_names(language, own_text(blocks, block))
    path = block.section_path
    for depth in range(len(path) - 1, 0, -1):
        outer = own_blocks(blocks, path[:depth])
        if outer and not is_class(outer[0]):
            names |= bound_names(language, own_text(blocks, outer[0]))
    return names
