"""Document commands: docs, show, rm (`add` is `cli/adding.py`)."""

from __future__ import annotations

import click
from rich.table import Table

from askalong.cli.code import print_symbols
from askalong.cli.output import (
    block_json,
    chunk_json,
    console,
    document_json,
    print_json,
    shorten,
    shown,
)
from askalong.cli.progress import ReindexBar
from askalong.library import opened_library
from askalong.types import Access, Document
from askalong.wire import collection_json, symbols_json

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")


@click.command()
@click.option("--collection", default=None, metavar="NAME", help="Only this collection's.")
@json_option
def docs(collection: str | None, as_json: bool) -> None:
    """List the documents, newest first (a collection's: by title)."""
    access = Access.local()
    with opened_library(ReindexBar()) as library:
        found = None if collection is None else library.store.get_collection(collection, access)
        documents = (
            library.store.list_documents(access)
            if found is None
            else library.store.collection_documents(found.id, access)
        )
        jobs = {job.document_id: job for job in library.store.jobs([d.id for d in documents])}
    if as_json:
        payload: dict[str, object] = {
            "documents": [document_json(d, jobs.get(d.id)) for d in documents]
        }
        if found is not None:
            payload["collection"] = collection_json(found)
        print_json(payload)
        return
    if not documents:
        console.print("No documents yet. Add some with: askalong add PATH_OR_URL")
        return
    table = Table("id", "title", "format", "pages", "lang", "added", "state", box=None)
    for d in documents:
        job = jobs.get(d.id)
        table.add_row(
            d.id,
            shorten(d.title, 60),
            d.format,
            str(d.page_count),
            d.language,
            d.created[:16].replace("T", " "),
            "ready" if job is None else shorten(job.step, 40),
        )
    console.print(table)


@click.command()
@click.argument("doc")
@click.option("--blocks", "what", flag_value="blocks", help="Show the blocks.")
@click.option("--chunks", "what", flag_value="chunks", help="Show the chunks.")
@click.option(
    "--symbols", "what", flag_value="symbols", help="Show a source file's symbols and lines."
)
@click.option("--page", type=int, default=None, help="Only this page (1-based).")
@json_option
def show(doc: str, what: str | None, page: int | None, as_json: bool) -> None:
    """Show a document (id or id prefix): its outline, blocks, chunks or symbols."""
    with opened_library(ReindexBar()) as library:
        document = library.store.get_document(doc, Access.local())
        blocks = library.store.blocks(document.id)
        chunks = library.store.chunks(document.id)
    if page is not None:  # a paragraph run on from the page before has lines on this one
        blocks = tuple(b for b in blocks if b.page and b.page <= page <= (b.last_page or b.page))
        chunks = tuple(
            c
            for c in chunks
            if c.page_start is not None and c.page_start <= page <= (c.page_end or c.page_start)
        )
    if as_json:
        payload: dict[str, object] = {"document": document_json(document)}
        if what == "symbols":
            print_json({**payload, "symbols": symbols_json(blocks)})
            return
        if what != "chunks":
            payload["blocks"] = [block_json(b) for b in blocks]
        if what != "blocks":
            payload["chunks"] = [chunk_json(c) for c in chunks]
        print_json(payload)
        return
    _print_header(document)
    if what == "symbols":
        print_symbols(blocks)
    elif what == "blocks":
        for b in blocks:
            where = f"p{b.page} " if b.page else ""
            console.print(f"[dim]{b.id:>6} {where}{b.kind:<9}[/] {shorten(b.text, 100)}")
    elif what == "chunks":
        for c in chunks:
            section = shorten(" > ".join(c.section_path), 120)
            console.print(f"[bold]{c.id}[/] [dim]{section}[/]\n{shorten(c.text, 300)}\n")
    else:
        for b in blocks:
            if b.kind == "heading":
                indent = "  " * max(b.heading_level - 1, 0)
                console.print(
                    f"{indent}{shorten(b.text, 90)}  [dim]{b.id}"
                    + (f" p{b.page}" if b.page else "")
                    + "[/]"
                )


def _print_header(d: Document) -> None:
    console.print(f"[bold]{shown(d.title)}[/]  [dim]{d.id}[/]")
    console.print(
        f"{d.format}, {d.page_count} page(s), {d.language}, {d.size_bytes:,} bytes, "
        f"{d.visibility}, added {d.created}"
    )
    console.print(f"source: {shown(d.source)}")
    for notice in d.notices:
        console.print(f"[yellow]note:[/] {shown(notice)}")
    console.print()


@click.command()
@click.argument("doc")
@json_option
def rm(doc: str, as_json: bool) -> None:
    """Remove a document (id or id prefix) with its blocks, chunks and stored file."""
    with opened_library(ReindexBar()) as library:
        document = library.store.get_document(doc, Access.local())
        library.remove(document.id, Access.local())
    if as_json:
        print_json({"removed": document_json(document)})
    else:
        console.print(f"removed {document.id}  {shown(document.title)}")
