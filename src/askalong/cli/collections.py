"""The collections command: list the collections, remove one (its documents stay unless
asked). Collections are made by ``add`` (a folder, or ``--collection NAME``)."""

from __future__ import annotations

import click
from rich.table import Table

from askalong.cli.documents import json_option
from askalong.cli.output import console, document_json, print_json, shown
from askalong.cli.progress import ReindexBar
from askalong.library import opened_library
from askalong.types import Access
from askalong.wire import collection_json


@click.group(invoke_without_command=True)
@json_option
@click.pass_context
def collections(ctx: click.Context, as_json: bool) -> None:
    """List the collections (name, documents, chunks); `collections rm NAME` removes one.

    A folder added is a collection named after it (or `add --collection NAME`); ask or
    search it as one with `--collection NAME`.
    """
    if ctx.invoked_subcommand is not None:
        return
    with opened_library(ReindexBar()) as library:
        found = library.store.list_collections(Access.local())
    if as_json:
        print_json({"collections": [collection_json(c) for c in found]})
        return
    if not found:
        console.print("No collections yet. Add a folder with: askalong add FOLDER")
        return
    table = Table("id", "name", "documents", "chunks", "created", box=None)
    for c in found:
        table.add_row(
            c.id, shown(c.name), str(c.documents), str(c.chunks), c.created[:16].replace("T", " ")
        )
    console.print(table)


@collections.command("rm")
@click.argument("name")
@click.option(
    "--with-documents", is_flag=True, help="Also remove its documents (default: they stay)."
)
@json_option
def rm(name: str, with_documents: bool, as_json: bool) -> None:
    """Remove a collection (name or id); its documents stay unless --with-documents."""
    access = Access.local()
    with opened_library(ReindexBar()) as library:
        collection = library.store.get_collection(name, access)
        removed = library.remove_collection(collection, access, with_documents=with_documents)
    if as_json:
        print_json(
            {
                "removed": collection_json(collection),
                "documents_removed": [document_json(d) for d in removed],
            }
        )
        return
    console.print(f"removed collection {shown(collection.name)} ({collection.id})")
    if removed:
        console.print(f"and its {len(removed)} document(s)")
