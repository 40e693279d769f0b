"""Gather the evidence for one question: the anchor's neighbourhood, the parts of the
document the question names, and what hybrid search finds, as context units in that order.

Read along (an anchor is given): search stays in the anchor's document, at most
``k_max_read_along`` hits. Knowledge base: every document the asker may see (or the ones
named), at most ``k_max_knowledge_base`` hits.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askalong.context.anchor import anchored_context, resolve_anchor
from askalong.context.assemble import assemble_context
from askalong.context.crossref import cross_references, crossref_units
from askalong.context.outline import section_root
from askalong.context.small_to_big import small_to_big
from askalong.context.units import ContextUnit
from askalong.library import Library
from askalong.retrieve.search import SearchResult
from askalong.types import Access, Anchor, Block, Chunk, Hit

BlockKey = tuple[str, str]  # (document id, block id)


@dataclass(frozen=True)
class Evidence:
    """What the answerer may use, and what was searched (said with a not-covered answer)."""

    units: tuple[ContextUnit, ...]
    blocks: Mapping[BlockKey, Block]  # every block of the units' documents
    titles: Mapping[str, str]  # document id -> title, for the units' documents
    anchor: Anchor | None  # resolved: block id and span filled in
    hits: tuple[Hit, ...]
    searched: tuple[str, ...]
    notes: tuple[str, ...]
    seconds: float


def gather(
    library: Library,
    question: str,
    access: Access,
    *,
    anchor: Anchor | None = None,
    documents: Sequence[str] = (),
) -> Evidence:
    started = time.perf_counter()
    if anchor is not None:
        return _read_along(library, question, access, anchor, started)
    result = library.searcher.search(question, access, documents=documents)
    units = _retrieved_units(library, result.hits)
    blocks = _blocks_of(library, units)
    context = assemble_context(question, None, (), units)
    return _evidence(context, blocks, _titles(library, access, context), None, result, started)


def _read_along(
    library: Library, question: str, access: Access, anchor: Anchor, started: float
) -> Evidence:
    document = library.store.get_document(anchor.document_id, access)  # permission check
    blocks = library.store.blocks(document.id)
    anchor = resolve_anchor(blocks, anchor)
    anchor_unit = anchored_context(blocks, anchor)
    refs = cross_references(question, blocks, anchor=anchor)
    crossref = crossref_units(question, refs, blocks, document_id=document.id)
    query = _anchored_query(question, anchor_unit)
    k = library.searcher.policy.k_max_read_along
    result = library.searcher.search(query, access, documents=(document.id,), k_max=k)
    retrieved = _retrieved_units(library, result.hits)
    context = assemble_context(
        question, anchor_unit, crossref, retrieved, root=section_root(blocks)
    )
    by_key = {(document.id, b.id): b for b in blocks}
    return _evidence(context, by_key, {document.id: document.title}, anchor, result, started)


def _titles(library: Library, access: Access, units: Sequence[ContextUnit]) -> dict[str, str]:
    ids = {u.document_id for u in units}
    return {i: library.store.get_document(i, access).title for i in ids}


def _anchored_query(question: str, anchor_unit: ContextUnit) -> str:
    """Search with the question and the selected text: "Explain" alone finds nothing."""
    return f"{question}\n{anchor_unit.cited_text()}"


def _retrieved_units(library: Library, hits: Sequence[Hit]) -> list[ContextUnit]:
    chunks: dict[str, tuple[Chunk, ...]] = {}
    for hit in hits:
        if hit.document_id not in chunks:
            chunks[hit.document_id] = library.store.chunks(hit.document_id)
    return small_to_big(hits, chunks)


def _blocks_of(library: Library, units: Sequence[ContextUnit]) -> dict[BlockKey, Block]:
    """The blocks of the units' documents (block ids are unique within a document only)."""
    found: dict[BlockKey, Block] = {}
    for document_id in {u.document_id for u in units}:
        for block in library.store.blocks(document_id):
            found[(document_id, block.id)] = block
    return found


def _evidence(
    units: Sequence[ContextUnit],
    blocks: Mapping[BlockKey, Block],
    titles: Mapping[str, str],
    anchor: Anchor | None,
    result: SearchResult,
    started: float,
) -> Evidence:
    searched = (result.query, f"routes: {', '.join(result.routes) or 'none'}")
    return Evidence(
        units=tuple(units),
        blocks=blocks,
        titles=titles,
        anchor=anchor,
        hits=result.hits,
        searched=searched,
        notes=result.notes,
        seconds=time.perf_counter() - started,
    )
