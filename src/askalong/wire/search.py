"""The JSON forms of a search: ``askalong search --json`` and ``GET /api/search``, the routes
that ran and the hits ranked from 1, each with its chunk's place and text."""

from __future__ import annotations

from collections.abc import Callable

from typing_extensions import TypedDict

from askalong.types import Chunk, Hit, RetrievalMode, SearchResult
from askalong.wire.documents import SpanJSON, span_json


class HitJSON(TypedDict):
    """One search hit; a route's score and rank are null when it did not find the chunk."""

    rank: int
    chunk_id: str
    document_id: str
    document_title: str
    score: float
    mode: RetrievalMode
    keyword_score: float | None
    keyword_rank: int | None
    vector_score: float | None
    vector_rank: int | None
    page_start: int | None
    page_end: int | None
    section_path: list[str]
    text: str
    spans: list[SpanJSON]


class SearchJSON(TypedDict):
    """``askalong search --json`` and ``GET /api/search``: the routes that ran, then hits."""

    query: str
    routes: list[str]
    notes: list[str]
    hits: list[HitJSON]


def hit_json(rank: int, hit: Hit, chunk: Chunk, title: str) -> HitJSON:
    return {
        "rank": rank,
        "chunk_id": hit.chunk_id,
        "document_id": hit.document_id,
        "document_title": title,
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
        "spans": [span_json(s) for s in chunk.spans],
    }


def search_json(
    result: SearchResult, chunk_of: Callable[[str], Chunk], title_of: Callable[[str], str]
) -> SearchJSON:
    """The result with its hits ranked from 1; each edge looks chunks and titles up its way."""
    hits = [
        hit_json(rank, hit, chunk_of(hit.chunk_id), title_of(hit.document_id))
        for rank, hit in enumerate(result.hits, 1)
    ]
    return {
        "query": result.query,
        "routes": list(result.routes),
        "notes": list(result.notes),
        "hits": hits,
    }
