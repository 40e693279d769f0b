"""Hybrid search: the keyword and vector routes, each permission-filtered in its query,
fused by ``retrieve``. One searcher for every backend: it runs the route protocols of
``index/base.py`` and never a concrete index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from askalong.errors import AskAlongError, InputError
from askalong.index.base import SearchRoutes
from askalong.providers.rerank import Reranker, rerank_or_fallback
from askalong.retrieve.cutoff import fuse
from askalong.retrieve.followup import with_context
from askalong.retrieve.fusion import fused_ranking
from askalong.retrieve.pages import page_first
from askalong.retrieve.policy import RetrievalPolicy
from askalong.retrieve.titles import TITLE_WINDOW, title_only
from askalong.store.base import Store
from askalong.text.scripts import detect_language
from askalong.text.tokens import tokenize
from askalong.types import Access, Hit, SearchResult

MAX_QUERY_CHARS = 10_000
RERANK_CANDIDATES = 20  # the fused top that a reranker reorders
# The embedder reads a long query in 510-token windows, seconds of work for 10k
# characters; its head says what the query is about just as well.
MAX_EMBEDDED_QUERY_CHARS = 1_000
# A follow-up's thread context weighs this much of the question's own terms in BM25.
CONTEXT_WEIGHT = 0.3


@dataclass(frozen=True)
class _Routes:
    keyword: Sequence[Hit] | None  # a route's hits (``route_hits.py``)
    vector: Sequence[Hit] | None
    notes: tuple[str, ...]
    # Searched by the keyword route only: their vectors are not there yet.
    unembedded: frozenset[str] = frozenset()

    @property
    def names(self) -> tuple[str, ...]:
        ran = (("keyword", self.keyword), ("vector", self.vector))
        return tuple(name for name, hits in ran if hits is not None)


class Searcher:
    def __init__(
        self,
        store: Store,
        routes: SearchRoutes,
        policy: RetrievalPolicy | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.store = store
        self.routes = routes
        self.policy = policy or RetrievalPolicy()
        self.reranker = reranker

    def search(
        self,
        query: str,
        access: Access,
        *,
        documents: Sequence[str] = (),
        k_max: int | None = None,
        use_vectors: bool = True,
        language: str | None = None,
        context: str = "",
        across: bool = False,
    ) -> SearchResult:
        """The best chunks for ``query`` among the documents ``access`` may see
        (restricted to ``documents`` when given: ids the caller resolved with the store's
        ``get_document`` under the same ``access``, which is their permission check).
        ``language`` is ``detect_language(query)`` when the caller has it already.
        ``context`` (a follow-up's previous question and answer) is searched too, at
        ``CONTEXT_WEIGHT`` in the keyword route and after the query in the embedded text.
        ``across``: the documents are in the other language than the query (the fusion
        then leans on the vector route, ``RetrievalPolicy.keyword_share``)."""
        query = _checked_query(query)
        routes = self._run_routes(query, access, documents, use_vectors, context=context)
        k = k_max or self.policy.k_max_knowledge_base
        reranked, rerank_notes = self._reranked(query, routes, k, across)
        if reranked is not None:
            names = (*routes.names, "rerank")
            return SearchResult(query, tuple(reranked), names, (*routes.notes, *rerank_notes))
        routes = replace(routes, notes=(*routes.notes, *rerank_notes))
        hits = fuse(
            routes.keyword,
            routes.vector,
            self.policy,
            k_max=k,
            language=language or detect_language(query),
            unembedded=routes.unembedded,
            by_pages=self.policy.by_pages(len(documents)),
            titles=self._title_chunks(routes, access),
            across=across,
        )
        notes = routes.notes if hits else (*routes.notes, "nothing passed the score threshold")
        return SearchResult(query, tuple(hits), routes.names, notes)

    def _title_chunks(self, routes: _Routes, access: Access) -> frozenset[str]:
        """The title chunks (``retrieve/titles.py``) among each route's first hits."""
        if not self.policy.title_chunks_last:
            return frozenset()
        firsts = [*(routes.keyword or ())[:TITLE_WINDOW], *(routes.vector or ())[:TITLE_WINDOW]]
        # One query, as the asker may see them: a document the index still holds but the
        # store no longer shows them has no opening chunk here (its hits are dropped
        # further on).
        openers = self.store.opening_chunks([hit.chunk_id for hit in firsts], access)
        return frozenset(chunk.id for chunk, title in openers if title_only(chunk, title))

    def _reranked(
        self, query: str, routes: _Routes, k: int, across: bool
    ) -> tuple[list[Hit] | None, tuple[str, ...]]:
        """With a reranker: the fused top candidates reordered by it (scores below its
        minimum dropped), or None and a note when it fails, so fusion decides."""
        if self.reranker is None or not (routes.keyword or routes.vector):
            return None, ()
        candidates = fused_ranking(
            routes.keyword or (),
            routes.vector or (),
            self.policy,
            language=detect_language(query),
            unembedded=routes.unembedded,
            across=across,
        )[:RERANK_CANDIDATES]
        texts = [self.store.chunk(hit.chunk_id).text for hit in candidates]
        hits, note = rerank_or_fallback(self.reranker, query, candidates, texts)
        if note is not None:
            return None, (note,)
        return hits[:k], ()

    def ranking(
        self,
        query: str,
        access: Access,
        *,
        documents: Sequence[str] = (),
        use_keyword: bool = True,
        use_vectors: bool = True,
        context: str = "",
        language: str | None = None,
        across: bool = False,
    ) -> list[Hit]:
        """The full fused ranking with no threshold or cut (what evaluations score),
        among ``documents`` when given, ``context`` and ``across`` as ``search`` takes them."""
        query = _checked_query(query)
        routes = self._run_routes(
            query, access, documents, use_vectors, use_keyword=use_keyword, context=context
        )
        language = language or detect_language(query)
        fused = fused_ranking(
            routes.keyword or (),
            routes.vector or (),
            self.policy,
            language=language,
            unembedded=routes.unembedded,
            titles=self._title_chunks(routes, access),
            across=across,
        )
        if self.policy.by_pages(len(documents)):
            return page_first(fused, share=self.policy.page_share)
        return fused

    def _run_routes(
        self,
        query: str,
        access: Access,
        documents: Sequence[str],
        use_vectors: bool,
        *,
        use_keyword: bool = True,
        context: str = "",
    ) -> _Routes:
        named = _named(documents)
        keyword = None
        if use_keyword:
            keyword = self._keyword_route(query, access, named, context)
        # A query of stop words finds no keyword hit; only then is it tokenised here.
        if not keyword and not tokenize(query):
            return _Routes(None, None, ("the query has only stop words or punctuation",))
        embedded = f"{query}\n{context}" if context else query
        vector, notes, unembedded = self._vector_route(embedded, access, named, use_vectors)
        return _Routes(keyword, vector, notes, unembedded)

    def _keyword_route(
        self, query: str, access: Access, named: frozenset[str] | None, context: str
    ) -> Sequence[Hit]:
        limit = self.policy.keyword_limit
        hits = self.routes.keyword.search(query, access, documents=named, limit=limit)
        if not context.strip():
            return hits
        around = self.routes.keyword.search(
            context[:MAX_QUERY_CHARS], access, documents=named, limit=limit
        )
        return with_context(hits, around, CONTEXT_WEIGHT)[:limit]

    def _vector_route(
        self, query: str, access: Access, named: frozenset[str] | None, use_vectors: bool
    ) -> tuple[Sequence[Hit] | None, tuple[str, ...], frozenset[str]]:
        """The vector route's hits (None when it did not run), notes, and the documents
        ``access`` may see that it could not search (no vectors yet)."""
        if not use_vectors:
            return None, (), frozenset()
        vectors, embedder = self.routes.vectors, self.routes.embedder
        if vectors is None or embedder is None:
            return None, ("vector search is off (ASKALONG_EMBEDDER=none)",), frozenset()
        scope = vectors.scope(access, named)
        notes = _pending_note(len(scope.pending))
        if not scope.ready:
            return None, notes, scope.pending
        try:
            query_vector = embedder.embed_query(query[:MAX_EMBEDDED_QUERY_CHARS])
        except AskAlongError as exc:
            failed = f"vector search failed, keyword results only: {exc}"
            return None, (*notes, failed), scope.pending
        hits = vectors.search(query_vector, scope, limit=self.policy.vector_limit)
        return hits, notes, scope.pending


def _named(documents: Sequence[str]) -> frozenset[str] | None:
    """Ids of the named documents; None when none are named. The caller resolved (and
    permission-checked) them; each route still filters by ``access`` in its own query."""
    return frozenset(documents) if documents else None


def _checked_query(query: str) -> str:
    query = query.strip()
    if not query:
        raise InputError("the query is empty", source="query")
    return query[:MAX_QUERY_CHARS]


def _pending_note(pending: int) -> tuple[str, ...]:
    if not pending:
        return ()
    return (f"{pending} document(s) have no vectors yet and are searched by keyword only",)
