"""Reading code: a source file's symbols (``show DOC --symbols``) and the call tree from
an entry function (``calls FILE:LINE``), each node a citation."""

from __future__ import annotations

from collections.abc import Sequence

import click

from askalong.asking.code_reading import anchor_place, repository_of
from askalong.cli.output import console, print_json, shown
from askalong.context.call_tree import DEPTH, CallNode, call_tree, node_line, walk
from askalong.context.line_anchor import LineRef, line_anchor, line_ref, names_file
from askalong.errors import InputError
from askalong.library import opened_library
from askalong.store.base import Store
from askalong.types import Access, Block, Document


def symbols_json(blocks: Sequence[Block]) -> list[dict[str, object]]:
    """A source file's definitions: qualified name, block and lines, in reading order."""
    seen: set[tuple[str, ...]] = set()
    symbols: list[dict[str, object]] = []
    for block in blocks:
        if block.section_path and block.section_path not in seen:  # a symbol's first block
            seen.add(block.section_path)
            symbols.append(
                {
                    "name": ".".join(block.section_path),
                    "qualname": list(block.section_path),
                    "block_id": block.id,
                    "lines": list(block.lines) if block.lines else None,
                }
            )
    return symbols


def print_symbols(blocks: Sequence[Block]) -> None:
    for symbol in symbols_json(blocks):
        qualname = symbol["qualname"]
        assert isinstance(qualname, list)
        lines = symbol["lines"]
        where = f"{lines[0]}-{lines[1]}" if isinstance(lines, list) else ""
        indent = "  " * (len(qualname) - 1)
        console.print(f"{indent}{shown(qualname[-1])}  [dim]{where} {symbol['block_id']}[/]")


@click.command()
@click.argument("at", metavar="FILE:LINE")
@click.option("--doc", "doc", default=None, help="The source document (if the path is ambiguous).")
@click.option("--depth", type=click.IntRange(1, 8), default=DEPTH, help="Levels of calls shown.")
@click.option("--json", "as_json", is_flag=True, help="Print the tree as JSON (see README).")
def calls(at: str, doc: str | None, depth: int, as_json: bool) -> None:
    """Which paths does this trigger? The calls from the function at FILE:LINE, as a tree
    (functions of its repository only; a cycle is cut), one line per node with its lines."""
    ref = line_ref(at)
    if ref is None:
        raise InputError(f"{at!r}: expected FILE:LINE", source="calls")
    access = Access.local()
    with opened_library() as library:
        document = _document(library.store, access, ref, doc)
        blocks = library.store.blocks(document.id)
        anchor = line_anchor(document.id, blocks, ref)
        block = next(b for b in blocks if b.id == anchor.block_id)
        repository = repository_of(library.store, document, blocks, access)
        tree = call_tree(repository, anchor_place(repository, document, block), depth=depth)
    if as_json:
        print_json({"tree": [_node_json(n) for n in walk(tree)]})
        return
    for node in walk(tree):
        console.print(shown(node_line(node)))


def _document(store: Store, access: Access, ref: LineRef, doc: str | None) -> Document:
    if doc is not None:
        return store.get_document(doc, access)
    found = [d for d in store.list_documents(access) if names_file(d.source, ref.file)]
    if len(found) != 1:
        problem = "no document is this file" if not found else "several documents end so"
        raise InputError(f"{problem}; give --doc or a longer path", source=ref.file)
    return found[0]


def _node_json(node: CallNode) -> dict[str, object]:
    place = node.place
    return {
        "depth": node.depth,
        "name": ".".join(place.qualname),
        "document_id": place.file.document_id,
        "source": place.file.source,
        "block_id": place.block.id,
        "lines": list(place.block.lines) if place.block.lines else None,
        "called_at": node.line,
        "cycle": node.cut == "cycle",
    }
