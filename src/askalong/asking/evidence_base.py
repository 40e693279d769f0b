"""What every evidence strategy makes (``Evidence``) and the store reads they share: a
search's hits grown to units (small to big over the hit chunks and their neighbours),
each unit placed on its blocks' pages and sections, and the units' documents' titles.

Every unit knows the page and section of its blocks (``ContextUnit.places``), so no
document's blocks are loaded for the quotes: only the anchor's document is read whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from askalong.asking.code_finding import CodeFinding
from askalong.asking.question import AskedQuestion
from askalong.asking.searched import routes_searched
from askalong.context.anchor import LocatedAnchor
from askalong.context.call_tree import CallNode
from askalong.context.small_to_big import small_to_big
from askalong.context.units import ContextUnit, places_of
from askalong.errors import NotFound
from askalong.retrieve.search import Searcher
from askalong.store.base import Store
from askalong.types import Access, Block, Chunk, Hit, SearchResult, SetAside

BlockKey = tuple[str, str]  # (document id, block id): block ids are unique per document


@dataclass(frozen=True)
class Evidence:
    """What the answerer may use, and what was searched (said with a not-covered answer)."""

    units: tuple[ContextUnit, ...]
    titles: Mapping[str, str]  # document id -> title, for the units' documents
    anchor_terms: frozenset[str]  # key terms of the anchor's cited text (drift, claims)
    hits: tuple[Hit, ...]
    searched: tuple[str, ...]
    notes: tuple[str, ...]
    seconds: float = 0.0  # set by ``gather``, which times every strategy
    set_aside: SetAside | None = None  # why the anchor was left out, when it was
    call_tree: CallNode | None = None  # a call-path question's tree, its nodes the units
    code_finding: CodeFinding | None = None  # "what calls X / where is X defined": the graph's
    code_subject: str = ""  # code evidence about this function: answered from its lines


@dataclass(frozen=True)
class Searching:
    """A strategy that searches: the store it reads units from, the searcher it asks."""

    store: Store
    searcher: Searcher

    def units(self, hits: Sequence[Hit], known: Mapping[BlockKey, Block]) -> list[ContextUnit]:
        """The hits grown to units and placed on their blocks (``known``: those read)."""
        return placed(self.store, retrieved_units(self.store, hits), known)

    def found(
        self,
        asked: AskedQuestion,
        access: Access,
        context: Sequence[ContextUnit],
        anchored: frozenset[str],
        result: SearchResult,
    ) -> Evidence:
        """The assembled ``context`` as the evidence ``result``'s search found, titled."""
        titles = titles_of(self.store, access, asked, context)
        return searched_evidence(context, titles, anchored, result, asked.question.wording)


def searched_evidence(
    units: Sequence[ContextUnit],
    titles: Mapping[str, str],
    anchored: frozenset[str],
    result: SearchResult,
    words: str,
) -> Evidence:
    """Evidence that a search found: its query and routes are what was searched (the
    routes said in the question's ``words``, as the not-covered answer they come with)."""
    searched = (result.query, routes_searched(result.routes, words))
    return Evidence(
        units=tuple(units),
        titles=titles,
        anchor_terms=anchored,
        hits=result.hits,
        searched=searched,
        notes=result.notes,
    )


def titles_of(
    store: Store, access: Access, asked: AskedQuestion, units: Sequence[ContextUnit]
) -> dict[str, str]:
    """The units' documents' titles: those asked about are known already; another hit
    document is fetched (and so checked) once."""
    known = {document.id: document.title for document in asked.documents}
    ids = {u.document_id for u in units}
    return {i: known[i] if i in known else _title(store, access, i) for i in ids}


def _title(store: Store, access: Access, document_id: str) -> str:
    try:
        return store.get_document(document_id, access).title
    except NotFound:  # a hit of an index that lags the store: refused, naming nothing
        raise NotFound("no such document", source="retrieval") from None


def anchor_of(asked: AskedQuestion) -> LocatedAnchor:
    """The anchor of a question an anchored strategy was chosen for."""
    assert asked.anchor is not None, "an anchored strategy is chosen for an anchored question"
    return asked.anchor


def anchored_query(question: str, anchor_unit: ContextUnit) -> str:
    """Search with the question and the selected text: "Explain" alone finds nothing."""
    return f"{question}\n{anchor_unit.cited_text()}"


def retrieved_units(store: Store, hits: Sequence[Hit]) -> list[ContextUnit]:
    """Small to big over the hit chunks and their neighbours, read in one query (every
    chunk of the hit documents was 17 ms a question: a manual page has up to ~200)."""
    chunks: dict[str, list[Chunk]] = {}
    for chunk in store.chunks_around([hit.chunk_id for hit in hits]):
        chunks.setdefault(chunk.document_id, []).append(chunk)
    return small_to_big(hits, chunks)


def placed(
    store: Store, units: Sequence[ContextUnit], known: Mapping[BlockKey, Block]
) -> list[ContextUnit]:
    """The units with their blocks' pages and sections: from ``known`` (the anchor's
    document's blocks), else read block by block (a chunk knows only its own page range
    and section)."""
    out = []
    for unit in units:
        keys = dict.fromkeys((unit.document_id, span.block_id) for span in unit.spans)
        found = [known.get(key) or store.block(*key) for key in keys]
        out.append(replace(unit, places=places_of(found)))
    return out
