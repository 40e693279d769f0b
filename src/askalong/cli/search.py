"""The search command: hybrid retrieval from the command line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
from rich.markup import escape

from askalong.cli.output import console, print_json, shorten
from askalong.library import Library, opened_library
from askalong.retrieve.search import SearchResult
from askalong.types import Access, Hit


@click.command()
@click.argument("query")
@click.option("--doc", "documents", multiple=True, help="Only this document (repeatable).")
@click.option(
    "-k", "--top", type=click.IntRange(1, 50), default=None, help="Most hits (default 5)."
)
@click.option("--keyword-only", is_flag=True, help="Skip the vector route.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def search(
    query: str, documents: Sequence[str], top: int | None, keyword_only: bool, as_json: bool
) -> None:
    """Search the documents: hits with page, section and per-route scores."""
    with opened_library() as library:
        ids = [library.store.get_document(ref, Access.local()).id for ref in documents]
        result = library.searcher.search(
            query, Access.local(), documents=ids, k_max=top, use_vectors=not keyword_only
        )
        rows = [_hit_json(library, rank, hit) for rank, hit in enumerate(result.hits, 1)]
    if as_json:
        print_json(_result_json(result, rows))
    else:
        _print_result(result, rows)


def _hit_json(library: Library, rank: int, hit: Hit) -> dict[str, Any]:
    chunk = library.store.chunk(hit.chunk_id)
    document = library.store.get_document(hit.document_id, Access.local())
    return {
        "rank": rank,
        "chunk_id": hit.chunk_id,
        "document_id": hit.document_id,
        "document_title": document.title,
        "score": hit.score,
        "mode": hit.mode,
        "keyword_score": hit.keyword_score,
        "keyword_rank": hit.keyword_rank,
        "vector_score": hit.vector_score,
        "vector_rank": hit.vector_rank,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "section_path": list(chunk.section_path),
        "text": chunk.text,
    }


def _result_json(result: SearchResult, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "query": result.query,
        "routes": list(result.routes),
        "notes": list(result.notes),
        "hits": rows,
    }


def _print_result(result: SearchResult, rows: list[dict[str, Any]]) -> None:
    console.print(f"[dim]routes: {', '.join(result.routes) or 'none'}[/]")
    for note in result.notes:
        console.print(f"[yellow]note:[/] {escape(note)}")
    for row in rows:
        console.print(
            f"\n[bold]{row['rank']}.[/] {shorten(row['document_title'], 60)}"
            f"{_pages(row)}  [dim]{shorten(' > '.join(row['section_path']), 80)}[/]"
        )
        console.print(f"   [dim]{row['mode']} {row['score']:.4f}{_route_scores(row)}[/]")
        console.print(f"   {shorten(row['text'], 240)}")
    if not rows:
        console.print("No matching passages.")


def _pages(row: dict[str, Any]) -> str:
    start, end = row["page_start"], row["page_end"]
    if start is None:
        return ""
    return f", p. {start}" if start == end else f", pp. {start}-{end}"


def _route_scores(row: dict[str, Any]) -> str:
    parts = []
    if row["keyword_rank"] is not None:
        parts.append(f"keyword #{row['keyword_rank']} ({row['keyword_score']:.2f})")
    if row["vector_rank"] is not None:
        parts.append(f"vector #{row['vector_rank']} ({row['vector_score']:.3f})")
    return " · " + ", ".join(parts) if parts else ""
