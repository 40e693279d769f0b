"""Reading code: a source file's symbols (``show DOC --symbols``) and the call tree from
an entry function (``calls FILE:LINE``), each node a citation."""

from __future__ import annotations

from collections.abc import Sequence

import click

from askalong.asking.code_reading import anchor_place, repository_of
from askalong.cli.output import console, print_json, shown
from askalong.cli.progress import ReindexBar
from askalong.context.call_tree import DEPTH, call_tree, node_line, walk
from askalong.context.line_anchor import LineRef, line_anchor, line_ref, names_file
from askalong.errors import InputError
from askalong.library import opened_library
from askalong.store.base import Store
from askalong.types import Access, Block, Document
from askalong.wire import call_node_json, symbols_json


def print_symbols(blocks: Sequence[Block]) -> None:
    for symbol in symbols_json(blocks):
        qualname, lines = symbol["qualname"], symbol["lines"]
        where = f"{lines[0]}-{lines[1]}" if lines else ""
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
    with opened_library(ReindexBar()) as library:
        document = _document(library.store, access, ref, doc)
        blocks = library.store.blocks(document.id)
        anchor = line_anchor(document.id, blocks, ref)
        block = next(b for b in blocks if b.id == anchor.block_id)
        repository = repository_of(library.store, document, blocks, access)
        tree = call_tree(repository, anchor_place(repository, document, block), depth=depth)
    if as_json:
        print_json({"tree": [call_node_json(n) for n in walk(tree)]})
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
