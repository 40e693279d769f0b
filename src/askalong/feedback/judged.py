"""The frozen copy of a judged answer, taken from its stored turn when the feedback is
given: the citations with the chunks that hold each quote and the hashes of their texts,
the ranked hits with their route scores, the retrieval mode and the fallbacks its notes
name. Documents are read with the asker's own access, so the copy holds nothing the asker
could not see; a document gone since keeps its ids and loses only its title."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from askalong.errors import NotFound
from askalong.store.base import DocumentStore
from askalong.types import Access, Answer, Chunk, Hit, Quote
from askalong.values.feedback import Citation, Judged, RankedChunk

# Notes that say a route fell back: the vector route missing for some documents, or a
# reranker that failed and left the fused order.
FALLBACK_CUES = ("keyword only", "rerank")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def judged_answer(store: DocumentStore, answer: Answer, access: Access) -> Judged:
    titles: dict[str, str] = {}
    chunks: dict[str, tuple[Chunk, ...]] = {}
    citations = tuple(_citation(store, q, access, titles, chunks) for q in answer.quotes)
    ranked = tuple(
        _ranked(store, rank, hit, access, titles) for rank, hit in enumerate(answer.hits, 1)
    )
    return Judged(
        question=answer.question,
        answer=answer.answer,
        status=answer.status,
        explanation=answer.explanation,
        citations=citations,
        retrieved=ranked,
        retrieval_mode=retrieval_mode(answer.hits),
        fallbacks=tuple(n for n in answer.notes if any(c in n.lower() for c in FALLBACK_CUES)),
        answerer=answer.answerer,
        model=answer.model,
        route=answer.route,
        timings=answer.timings,
    )


def retrieval_mode(hits: Iterable[Hit]) -> str:
    modes = {h.mode for h in hits}
    if not modes:
        return "none"
    return modes.pop() if len(modes) == 1 else "mixed"


def holding_chunks(chunks: Iterable[Chunk], quote: Quote) -> tuple[Chunk, ...]:
    """The chunks one of whose spans overlaps the quote's span of its block."""
    return tuple(
        c
        for c in chunks
        if any(
            s.block_id == quote.block_id and s.start < quote.end and quote.start < s.end
            for s in c.spans
        )
    )


def _title(store: DocumentStore, doc_id: str, access: Access, titles: dict[str, str]) -> str:
    if doc_id not in titles:
        try:
            titles[doc_id] = store.get_document(doc_id, access).title
        except NotFound:
            titles[doc_id] = ""
    return titles[doc_id]


def _citation(
    store: DocumentStore,
    quote: Quote,
    access: Access,
    titles: dict[str, str],
    chunks: dict[str, tuple[Chunk, ...]],
) -> Citation:
    title = _title(store, quote.document_id, access, titles)
    if quote.document_id not in chunks:
        chunks[quote.document_id] = store.chunks(quote.document_id) if title else ()
    held = holding_chunks(chunks[quote.document_id], quote)
    return Citation(
        number=quote.number,
        document_id=quote.document_id,
        title=title,
        page=quote.page,
        block_id=quote.block_id,
        start=quote.start,
        end=quote.end,
        text=quote.text,
        text_sha256=sha256(quote.text),
        chunk_ids=tuple(c.id for c in held),
        chunk_sha256=tuple(sha256(c.text) for c in held),
    )


def _ranked(
    store: DocumentStore, rank: int, hit: Hit, access: Access, titles: dict[str, str]
) -> RankedChunk:
    title = _title(store, hit.document_id, access, titles)
    try:
        digest = sha256(store.chunk(hit.chunk_id).text) if title else ""
    except NotFound:
        digest = ""
    return RankedChunk(rank, hit, title, digest)
