"""Gather the evidence for one question: the anchor's neighbourhood, the parts of the
document the question names, and what hybrid search finds, as context units in that order.

Read along (an anchor is given): search stays in the anchor's document, at most
``k_max_read_along`` hits. A follow-up without an anchor is searched with its thread's
previous question and answer beside it (``thread_context``). Knowledge base: every
document the asker may see (or the ones named), at most ``k_max_knowledge_base`` hits.
Every unit knows the page and section of its blocks (``ContextUnit.places``), so no
document's blocks are loaded for the quotes: only the anchor's document is read whole.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from askalong.asking.code_evidence import (
    GraphEvidence,
    graph_evidence,
    member_units,
    subject_place,
    whole_unit,
)
from askalong.asking.code_finding import CodeFinding
from askalong.asking.code_reading import (
    anchor_place,
    only_code,
    repository_asked,
    repository_of,
)
from askalong.asking.question import AskedQuestion
from askalong.context.anchor import LocatedAnchor, located_context
from askalong.context.anchor_scope import anchor_set_aside
from askalong.context.assemble import assemble_context
from askalong.context.call_tree import CallNode
from askalong.context.code import CODE_TOTAL_CHARS, code_anchor_unit, code_units
from askalong.context.code_graph import Place, Repository
from askalong.context.code_question import defined_word, read_code_question
from askalong.context.crossref import crossref_units, outline_references
from askalong.context.drift import anchor_terms
from askalong.context.explain_units import explain_units
from askalong.context.outline import Outline
from askalong.context.small_to_big import small_to_big
from askalong.context.units import ContextUnit, places_of
from askalong.errors import NotFound
from askalong.library import Library
from askalong.retrieve.pages import best_pages, joined
from askalong.text.referents import leans_on_thread
from askalong.text.tokens import key_terms
from askalong.types import Access, Block, Chunk, Hit, SearchResult, SetAside

BlockKey = tuple[str, str]  # (document id, block id): block ids are unique per document
# Knowledge base: the answerer reads the top this many chunks (not only the policy's
# ``k_max_knowledge_base``, which stays what ``search`` lists): on the real-question set
# the answer to a why / how question was in the search's top 10 far more often than in
# its top 5 (and across languages, where the chunk vectors relate question and answer only
# loosely, the answer's chunk often ranks 6th-10th). The context's character budget
# (``assemble_context``) still bounds them.
ANSWER_CHUNKS = 10
# A collection (a manual's pages): the answer's chunks come first from this many of the
# best-ranked pages, searched again chunk by chunk (``retrieve/pages.py``).
BEST_PAGES = 2
# The share of an unrelated question's key terms its best unit elsewhere must hold for
# the anchor to be set aside.
STRONG_SHARE = 0.5


@dataclass(frozen=True)
class Evidence:
    """What the answerer may use, and what was searched (said with a not-covered answer)."""

    units: tuple[ContextUnit, ...]
    titles: Mapping[str, str]  # document id -> title, for the units' documents
    anchor_terms: frozenset[str]  # key terms of the anchor's cited text (drift, claims)
    hits: tuple[Hit, ...]
    searched: tuple[str, ...]
    notes: tuple[str, ...]
    seconds: float
    set_aside: SetAside | None = None  # why the anchor was left out, when it was
    call_tree: CallNode | None = None  # a call-path question's tree, its nodes the units
    code_finding: CodeFinding | None = None  # "what calls X / where is X defined": the graph's
    code_subject: str = ""  # code evidence about this function: answered from its lines


def gather(
    library: Library, asked: AskedQuestion, access: Access, blocks: Sequence[Block] = ()
) -> Evidence:
    """The evidence for ``asked``; ``blocks`` are its anchor's document's, as read once by
    the asker (none without an anchor)."""
    started = time.perf_counter()
    if asked.anchor is not None:
        return _read_along(library, asked, asked.anchor, access, blocks, started)
    named = _named_code(library, asked, access, started)
    if named is not None:
        return named
    question = asked.question
    context = thread_context(asked)
    result = library.searcher.search(
        question.text,
        access,
        documents=asked.document_ids,
        k_max=max(ANSWER_CHUNKS, library.searcher.policy.k_max_knowledge_base),
        language=question.script,
        context=context,
    )
    hits = result.hits
    if library.searcher.policy.by_pages(len(asked.document_ids)):
        hits = _within_best_pages(library, asked, access, result, context)
    elif 0 < len(hits) < ANSWER_CHUNKS:
        hits = _with_keyword_tail(library, asked, access, hits, context)
    units = _placed(library, _retrieved_units(library, hits), {})
    assembled = assemble_context(question.terms, None, (), units)
    titles = _titles(library, access, asked, assembled)
    return _evidence(assembled, titles, frozenset(), result, started)


def _within_best_pages(
    library: Library, asked: AskedQuestion, access: Access, result: SearchResult, context: str
) -> tuple[Hit, ...]:
    """A collection's answer chunks: the best pages searched again chunk by chunk, then the
    other pages' best chunks (``retrieve/pages.py``, ``joined``)."""
    pages = best_pages(result.hits, BEST_PAGES)
    if not pages:
        return result.hits
    within = library.searcher.search(
        asked.question.text,
        access,
        documents=pages,
        k_max=ANSWER_CHUNKS,
        language=asked.question.script,
        context=context,
    )
    return tuple(joined(within.hits, result.hits, ANSWER_CHUNKS))


def _with_keyword_tail(
    library: Library, asked: AskedQuestion, access: Access, hits: Sequence[Hit], context: str
) -> tuple[Hit, ...]:
    """The search's few hits, then the keyword route's next best chunks up to
    ``ANSWER_CHUNKS``: the fused list's dynamic cut often keeps one or two chunks of a
    paper, while the sentence that answers sits in a section that shares fewer of the
    question's words (a cross-section question); a search that found nothing stays so."""
    more = library.searcher.search(
        asked.question.text,
        access,
        documents=asked.document_ids,
        k_max=ANSWER_CHUNKS,
        use_vectors=False,
        language=asked.question.script,
        context=context,
    )
    return tuple(joined(hits, more.hits, ANSWER_CHUNKS))


def thread_context(asked: AskedQuestion) -> str:
    """A follow-up's context: the thread's previous question and answer (searched at a
    lower weight than the question itself, ``retrieve/search.py``), when the question
    leans on its thread (``text.referents``); empty otherwise: a question naming its own
    subject is searched as asked, not forced through the thread."""
    if not asked.history or not leans_on_thread(asked.question.text):
        return ""
    last = asked.history[-1]
    return f"{last.question}\n{last.answer}"


def _read_along(
    library: Library,
    asked: AskedQuestion,
    at: LocatedAnchor,
    access: Access,
    blocks: Sequence[Block],
    started: float,
) -> Evidence:
    if asked.documents[0].format == "code":
        return _reading_code(library, asked, at, access, blocks, started)
    document_id = asked.documents[0].id
    question = asked.question
    outline = Outline(blocks)
    anchor_unit = located_context(blocks, at)
    refs = outline_references(question.text, outline, position=at.index)
    crossref = crossref_units(question, refs, blocks, document_id=document_id)
    if asked.intent != "ask":  # a quick intent explains from the whole document
        found = explain_units(
            blocks, at, asked.intent, question.text, outline=outline, document_id=document_id
        )
        crossref = [*crossref, *found]
    k = library.searcher.policy.k_max_read_along
    known = {(document_id, block.id): block for block in blocks}
    set_aside = None
    if asked.intent == "ask":
        set_aside = anchor_set_aside(question.text, question.terms, anchor_unit, outline, refs)
    if set_aside is not None:
        # A question about something else is not forced through the selection: when the
        # document answers it elsewhere, it is answered from the whole document.
        own = library.searcher.search(question.text, access, documents=(document_id,), k_max=k)
        found = _placed(library, _retrieved_units(library, own.hits), known)
        if _strong(question.terms, found):
            context = assemble_context(question.terms, None, crossref, found, root=outline.root)
            titles = _titles(library, access, asked, context)
            evidence = _evidence(context, titles, frozenset(), own, started)
            return replace(evidence, set_aside=set_aside)
    query = _anchored_query(question.text, anchor_unit)
    result = library.searcher.search(query, access, documents=(document_id,), k_max=k)
    retrieved = _placed(library, _retrieved_units(library, result.hits), known)
    anchored = anchor_terms(anchor_unit)
    context = assemble_context(
        question.terms | anchored, anchor_unit, crossref, retrieved, root=outline.root
    )
    titles = _titles(library, access, asked, context)
    return _evidence(context, titles, anchored, result, started)


def _reading_code(
    library: Library,
    asked: AskedQuestion,
    at: LocatedAnchor,
    access: Access,
    blocks: Sequence[Block],
    started: float,
) -> Evidence:
    """An anchor in source code: the enclosing function whole, then its class, callees
    and callers in the repository (``context/code.py``), then what search finds there."""
    document = asked.documents[0]
    repository = repository_of(library.store, document, blocks, access)
    place = anchor_place(repository, document, blocks[at.index])
    given = at.anchor
    start, end = given.start or 0, given.end or len(place.block.text)
    anchor_unit = code_anchor_unit(place, start, end)
    graph = graph_evidence(repository, read_code_question(asked.question.text), place, anchor_unit)
    if graph is not None:
        return _from_graph(library, access, asked, graph, anchor_unit, started)
    code = code_units(repository, place)
    ids = tuple(f.document_id for f in repository.files)
    k = library.searcher.policy.k_max_read_along
    query = _anchored_query(asked.question.text, anchor_unit)
    result = library.searcher.search(query, access, documents=ids, k_max=k)
    retrieved = _placed(library, _retrieved_units(library, result.hits), {})
    anchored = anchor_terms(anchor_unit)
    context = assemble_context(
        asked.question.terms | anchored, anchor_unit, code, retrieved, total_chars=CODE_TOTAL_CHARS
    )
    titles = _titles(library, access, asked, context)
    evidence = _evidence(context, titles, anchored, result, started)
    return replace(evidence, code_subject=".".join(place.qualname) or document.title)


def _named_code(
    library: Library, asked: AskedQuestion, access: Access, started: float
) -> Evidence | None:
    """A question without an anchor naming an identifier the code asked of defines
    ("what calls _wake_up_first?", "how does Lock.acquire work?"): answered from that
    definition, its class, callees and callers, not from prose search; None otherwise."""
    question = read_code_question(asked.question.text)
    if not question.name:
        if not only_code(library.store, asked.documents, access):
            return None
        repository = repository_asked(library.store, asked.documents, access)
        word = defined_word(asked.question.text, repository.defined)
        if not word:
            return None
        question = replace(question, name=word)
    else:
        repository = repository_asked(library.store, asked.documents, access)
    graph = graph_evidence(repository, question, None)
    if graph is not None:
        return _from_graph(library, access, asked, graph, graph.units[0], started)
    place = subject_place(repository, question, None)
    if place is None:
        return None
    return _about_code(library, access, asked, repository, place, started)


def _about_code(
    library: Library,
    access: Access,
    asked: AskedQuestion,
    repository: Repository,
    place: Place,
    started: float,
) -> Evidence:
    """The named definition whole, then its class, callees and callers."""
    unit = whole_unit(place)
    around = [*member_units(repository, place), *code_units(repository, place)]
    context = assemble_context(asked.question.terms, unit, around, [], total_chars=CODE_TOTAL_CHARS)
    name = ".".join(place.qualname)
    return Evidence(
        units=tuple(context),
        titles=_titles(library, access, asked, context),
        anchor_terms=frozenset(),
        hits=(),
        searched=(f"the definition of {name} and its calls",),
        notes=(),
        seconds=time.perf_counter() - started,
        code_subject=name,
    )


def _from_graph(
    library: Library,
    access: Access,
    asked: AskedQuestion,
    graph: GraphEvidence,
    anchor_unit: ContextUnit,
    started: float,
) -> Evidence:
    """A graph question: the tree's or the finding's functions are the evidence, in that
    order, with no search (``asking/call_paths.py``, ``asking/code_answers.py`` answer it)."""
    return Evidence(
        units=graph.units,
        titles=_titles(library, access, asked, graph.units),
        anchor_terms=anchor_terms(anchor_unit),
        hits=(),
        searched=graph.searched,
        notes=(),
        seconds=time.perf_counter() - started,
        call_tree=graph.tree,
        code_finding=graph.finding,
    )


def _strong(terms: frozenset[str], units: Sequence[ContextUnit]) -> bool:
    """Whether the best retrieved unit holds at least half of the question's key terms."""
    if not units or not terms:
        return False
    return len(terms & key_terms(units[0].text)) >= STRONG_SHARE * len(terms)


def _titles(
    library: Library, access: Access, asked: AskedQuestion, units: Sequence[ContextUnit]
) -> dict[str, str]:
    """The units' documents' titles: those asked about are known already; another hit
    document is fetched (and so checked) once."""
    known = {document.id: document.title for document in asked.documents}
    ids = {u.document_id for u in units}
    return {i: known[i] if i in known else _title(library, access, i) for i in ids}


def _title(library: Library, access: Access, document_id: str) -> str:
    try:
        return library.store.get_document(document_id, access).title
    except NotFound:  # a hit of an index that lags the store: refused, naming nothing
        raise NotFound("no such document", source="retrieval") from None


def _anchored_query(question: str, anchor_unit: ContextUnit) -> str:
    """Search with the question and the selected text: "Explain" alone finds nothing."""
    return f"{question}\n{anchor_unit.cited_text()}"


def _retrieved_units(library: Library, hits: Sequence[Hit]) -> list[ContextUnit]:
    """Small to big over the hit chunks and their neighbours, read in one query (every
    chunk of the hit documents was 17 ms a question: a manual page has up to ~200)."""
    chunks: dict[str, list[Chunk]] = {}
    for chunk in library.store.chunks_around([hit.chunk_id for hit in hits]):
        chunks.setdefault(chunk.document_id, []).append(chunk)
    return small_to_big(hits, chunks)


def _placed(
    library: Library, units: Sequence[ContextUnit], known: Mapping[BlockKey, Block]
) -> list[ContextUnit]:
    """The units with their blocks' pages and sections: from ``known`` (the anchor's
    document's blocks), else read block by block (a chunk knows only its own page range
    and section)."""
    out = []
    for unit in units:
        keys = dict.fromkeys((unit.document_id, span.block_id) for span in unit.spans)
        found = [known.get(key) or library.store.block(*key) for key in keys]
        out.append(replace(unit, places=places_of(found)))
    return out


def _evidence(
    units: Sequence[ContextUnit],
    titles: Mapping[str, str],
    anchored: frozenset[str],
    result: SearchResult,
    started: float,
) -> Evidence:
    searched = (result.query, f"routes: {', '.join(result.routes) or 'none'}")
    return Evidence(
        units=tuple(units),
        titles=titles,
        anchor_terms=anchored,
        hits=result.hits,
        searched=searched,
        notes=result.notes,
        seconds=time.perf_counter() - started,
    )
