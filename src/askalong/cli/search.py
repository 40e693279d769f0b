"""The search command: hybrid retrieval from the command line."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import click

from askalong.cli.output import console, print_json, shorten, shown
from askalong.cli.progress import ReindexBar
from askalong.library import Library, opened_library
from askalong.types import Access
from askalong.wire import HitJSON, SearchJSON, search_json


@click.command()
@click.argument("query")
@click.option("--doc", "documents", multiple=True, help="Only this document (repeatable).")
@click.option("--collection", default=None, metavar="NAME", help="Only this collection's.")
@click.option(
    "-k", "--top", type=click.IntRange(1, 50), default=None, help="Most hits (default 5)."
)
@click.option("--keyword-only", is_flag=True, help="Skip the vector route.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def search(
    query: str,
    documents: Sequence[str],
    collection: str | None,
    top: int | None,
    keyword_only: bool,
    as_json: bool,
) -> None:
    """Search the documents: hits with page, section and per-route scores."""
    with opened_library(ReindexBar()) as library:
        ids = [library.store.get_document(ref, Access.local()).id for ref in documents]
        if collection is not None:  # resolved to its visible members once, here
            ids += library.collection_ids(collection, Access.local())
        result = library.searcher.search(
            query, Access.local(), documents=ids, k_max=top, use_vectors=not keyword_only
        )
        found = search_json(result, library.store.chunk, functools.partial(_title, library))
    if as_json:
        print_json(found)
    else:
        _print_result(found)


def _title(library: Library, document_id: str) -> str:
    return library.store.get_document(document_id, Access.local()).title


def _print_result(found: SearchJSON) -> None:
    console.print(f"[dim]routes: {', '.join(found['routes']) or 'none'}[/]")
    for note in found["notes"]:
        console.print(f"[yellow]note:[/] {shown(note)}")
    for row in found["hits"]:
        console.print(
            f"\n[bold]{row['rank']}.[/] {shorten(row['document_title'], 60)}"
            f"{_pages(row)}  [dim]{shorten(' > '.join(row['section_path']), 80)}[/]"
        )
        console.print(f"   [dim]{row['mode']} {row['score']:.4f}{_route_scores(row)}[/]")
        console.print(f"   {shorten(row['text'], 240)}")
    if not found["hits"]:
        console.print("No matching passages.")


def _pages(row: HitJSON) -> str:
    start, end = row["page_start"], row["page_end"]
    if start is None:
        return ""
    return f", p. {start}" if start == end else f", pp. {start}-{end}"


def _route_scores(row: HitJSON) -> str:
    parts = []
    if row["keyword_rank"] is not None:
        parts.append(f"keyword #{row['keyword_rank']} ({row['keyword_score']:.2f})")
    if row["vector_rank"] is not None:
        parts.append(f"vector #{row['vector_rank']} ({row['vector_score']:.3f})")
    return " · " + ", ".join(parts) if parts else ""
