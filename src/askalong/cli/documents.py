"""Document commands: add, docs, show, rm."""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from askalong.cli.context import opened_store
from askalong.cli.output import (
    block_json,
    chunk_json,
    console,
    document_json,
    err_console,
    print_json,
    shorten,
)
from askalong.ingest import AddOutcome, Ingestor, expand_inputs
from askalong.types import VISIBILITIES, Access, Document

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")


@click.command()
@click.argument("inputs", nargs=-1, required=True, metavar="PATH_OR_URL...")
@click.option(
    "--visibility",
    type=click.Choice(VISIBILITIES),
    default=None,
    help="Who may see the documents (default: ASKALONG_VISIBILITY or private).",
)
@json_option
def add(inputs: Sequence[str], visibility: str | None, as_json: bool) -> None:
    """Add files, folders (recursively) and http(s) URLs of web pages or PDFs.

    Re-adding the same content is a no-op. One bad input is reported and the others
    still go in; the exit status is 1 only when every input failed.
    """
    items = expand_inputs(inputs)
    with opened_store() as (settings, store), Ingestor(settings, store) as ingestor:
        outcomes = _add_all(ingestor, items, visibility)
    _report_added(outcomes, as_json)
    if outcomes and all(o.status == "failed" for o in outcomes):
        raise SystemExit(1)


def _add_all(ingestor: Ingestor, items: list[str], visibility: str | None) -> list[AddOutcome]:
    outcomes = []
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err_console, transient=True) as progress:
        task = progress.add_task("Adding", total=len(items))
        for item in items:
            progress.update(task, description=f"Adding {shorten(item, 40)}")
            outcomes.append(ingestor.add(item, visibility=visibility))  # type: ignore[arg-type]
            progress.advance(task)
    return outcomes


def _report_added(outcomes: list[AddOutcome], as_json: bool) -> None:
    if as_json:
        print_json(_add_json(outcomes))
        return
    for o in outcomes:
        if o.status == "failed":
            err_console.print(f"[red]failed[/]  {escape(o.error or '')}")
        elif o.document and o.status == "exists":
            console.print(f"[dim]exists[/]  {o.document.id}  {escape(o.source)} (already added)")
        elif o.document:
            pages = f"{o.document.page_count} p, " if o.document.format == "pdf" else ""
            console.print(
                f"[green]added[/]   {o.document.id}  {escape(o.source)}  "
                f"({o.document.format}, {pages}{o.blocks} blocks, {o.chunks} chunks)"
            )
            for notice in o.document.notices:
                console.print(f"          [yellow]note:[/] {escape(notice)}")


def _add_json(outcomes: list[AddOutcome]) -> dict[str, object]:
    return {
        "results": [
            {
                "source": o.source,
                "status": o.status,
                "document": document_json(o.document) if o.document else None,
                "blocks": o.blocks,
                "chunks": o.chunks,
                "error": o.error,
            }
            for o in outcomes
        ],
        "added": sum(o.status == "added" for o in outcomes),
        "existing": sum(o.status == "exists" for o in outcomes),
        "failed": sum(o.status == "failed" for o in outcomes),
    }


@click.command()
@json_option
def docs(as_json: bool) -> None:
    """List the documents, newest first."""
    with opened_store() as (_, store):
        documents = store.list_documents(Access.local())
    if as_json:
        print_json({"documents": [document_json(d) for d in documents]})
        return
    if not documents:
        console.print("No documents yet. Add some with: askalong add PATH_OR_URL")
        return
    table = Table("id", "title", "format", "pages", "lang", "added", box=None)
    for d in documents:
        table.add_row(
            d.id,
            shorten(d.title, 60),
            d.format,
            str(d.page_count),
            d.language,
            d.created[:16].replace("T", " "),
        )
    console.print(table)


@click.command()
@click.argument("doc")
@click.option("--blocks", "what", flag_value="blocks", help="Show the blocks.")
@click.option("--chunks", "what", flag_value="chunks", help="Show the chunks.")
@click.option("--page", type=int, default=None, help="Only this page (1-based).")
@json_option
def show(doc: str, what: str | None, page: int | None, as_json: bool) -> None:
    """Show a document (id or id prefix): its outline, blocks or chunks."""
    with opened_store() as (_, store):
        document = store.get_document(doc, Access.local())
        blocks = store.blocks(document.id, page=page)
        chunks = store.chunks(document.id)
    if page is not None:
        chunks = tuple(
            c
            for c in chunks
            if c.page_start is not None and c.page_start <= page <= (c.page_end or c.page_start)
        )
    if as_json:
        payload: dict[str, object] = {"document": document_json(document)}
        if what != "chunks":
            payload["blocks"] = [block_json(b) for b in blocks]
        if what != "blocks":
            payload["chunks"] = [chunk_json(c) for c in chunks]
        print_json(payload)
        return
    _print_header(document)
    if what == "blocks":
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
    console.print(f"[bold]{escape(d.title)}[/]  [dim]{d.id}[/]")
    console.print(
        f"{d.format}, {d.page_count} page(s), {d.language}, {d.size_bytes:,} bytes, "
        f"{d.visibility}, added {d.created}"
    )
    console.print(f"source: {escape(d.source)}")
    for notice in d.notices:
        console.print(f"[yellow]note:[/] {escape(notice)}")
    console.print()


@click.command()
@click.argument("doc")
@json_option
def rm(doc: str, as_json: bool) -> None:
    """Remove a document (id or id prefix) with its blocks, chunks and stored file."""
    with opened_store() as (_, store):
        document = store.get_document(doc, Access.local())
        store.delete_document(document.id, Access.local())
    if as_json:
        print_json({"removed": document_json(document)})
    else:
        console.print(f"removed {document.id}  {escape(document.title)}")
