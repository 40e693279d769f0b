"""The keyword route: BM25 over our own tokens, in a tantivy index on disk.

``KeywordIndex`` is the local ``KeywordRoute`` (``index/base.py``): it opens the index,
writes entries (``index/keyword_schema.py``: the fields and what a chunk is indexed as)
and runs the queries of ``index/keyword_query.py`` (term queries, section titles, the
document's own index and glossary pages, the section-aware order). ``sections=False``
searches the text fields alone, as before sections were added (benchmarks compare the
two in one run). Its permission fields also decide what the local vector route may score
(``index/vector_route.py``).

An index written with an older schema is emptied when opened (the caller's ``sync``
then indexes the stored documents again): the index is derived data. A folder that cannot
be opened raises on first use, not on construction, so it stops only what reads or writes it
(``IndexUnreadable``, naming ``askalong doctor --repair``) and listing or showing
documents, which only the store serves, keeps working.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import tantivy

from askalong.errors import IndexUnreadable, StoreError
from askalong.index.keyword_batch import BATCH_DOCUMENTS, BATCH_SECONDS, Entry, PendingWrites
from askalong.index.keyword_ids import HitIds
from askalong.index.keyword_listings import AccessKey, VisibleListings
from askalong.index.keyword_query import (
    MAX_QUERY_TERMS,
    POINTER_PAGES,
    POINTER_ROLES,
    document_filters,
    exact_term,
    filtered,
    permission_query,
    pointer_pages_query,
    pointer_weights,
    query_terms,
    section_ranked,
    text_query,
    title_query,
    unscored,
)
from askalong.index.keyword_schema import (
    DOCUMENT_ID,
    GRAMS,
    ROLE,
    TEXT,
    build_schema,
    chunk_entry,
    search_grams,
    search_tokens,
)
from askalong.index.writer_lock import exclusive, lock_path
from askalong.route_hits import RouteHits
from askalong.types import Access, Chunk, Document, Hit

__all__ = [
    "CHECKED_ONE_BY_ONE",
    "LOCK_WAIT_SECONDS",
    "MAX_QUERY_TERMS",
    "KeywordIndex",
    "search_grams",
    "search_tokens",
]

# Past this many named documents (a collection) listing them all and intersecting is
# cheaper than one check each: 1,169 checks took 111 ms, the listing 8 ms
# (benchmarks/collection_search.py).
CHECKED_ONE_BY_ONE = 200
_WRITER_HEAP_BYTES = 32_000_000
# 17 parallel adds at load 30 lost one add, most likely to a 10 s wait here; like the
# store's busy timeout, wait long rather than fail an add. Writers that take the file lock
# (``writer_lock``) never wait here: only one without it (an older copy) makes them.
LOCK_WAIT_SECONDS = 60.0


class KeywordIndex:
    """A BM25 index of chunks, with the permission fields of their documents."""

    def __init__(
        self,
        folder: Path,
        *,
        sections: bool = True,
        lock_wait: float = LOCK_WAIT_SECONDS,
        batch_documents: int = BATCH_DOCUMENTS,
        batch_seconds: float = BATCH_SECONDS,
    ) -> None:
        """``lock_wait``: how long a write waits for tantivy's own writer lock; a ``batch``
        commits every ``batch_documents`` documents or ``batch_seconds`` seconds."""
        self.sections = sections  # False: the text fields alone (see the module docstring)
        self._lock_wait = lock_wait
        self._folder = folder
        self._source = str(folder)
        self._schema = build_schema()
        self._lock = threading.Lock()
        self._pending = PendingWrites(self.flush, documents=batch_documents, seconds=batch_seconds)
        self._listings = VisibleListings(folder)
        self._ids = HitIds()
        # The searcher of the last reload and the commit generation it holds.
        self._held: tuple[bytes, tantivy.Searcher] | None = None
        self._opened: tantivy.Index | None = None
        self._failure: IndexUnreadable | None = None
        try:
            self._opened = self._open()
        except (OSError, ValueError) as exc:
            problem = (
                f"cannot open the keyword index ({exc}); "
                "run 'askalong doctor --repair' to rebuild it from the store"
            )
            self._failure = IndexUnreadable(problem, source=self._source)
            self._failure.__cause__ = exc

    @property
    def _index(self) -> tantivy.Index:
        """The tantivy index; ``IndexUnreadable`` (raised on use, not on construction) when
        it could not be opened."""
        if self._opened is None:
            assert self._failure is not None
            raise self._failure
        return self._opened

    def _open(self) -> tantivy.Index:
        self._folder.mkdir(parents=True, exist_ok=True)
        try:
            return tantivy.Index(self._schema, path=self._source, reuse=True)
        except ValueError as exc:
            if "schema does not match" not in str(exc):
                raise
        # An older schema: start empty; ``SearchIndexes.sync`` refills from the store.
        shutil.rmtree(self._folder)
        self._folder.mkdir(parents=True)
        return tantivy.Index(self._schema, path=self._source, reuse=True)

    # ------------------------------------------------------------------------- writing

    def add(self, document: Document, chunks: Sequence[Chunk]) -> None:
        """Index ``chunks`` of ``document`` in one commit, replacing what was there."""
        self.add_many([(document, chunks)])

    def add_many(self, entries: Iterable[tuple[Document, Sequence[Chunk]]]) -> None:
        """Index several documents in one commit (a commit costs ~0.1 s of syncing, so a
        rebuild goes batch by batch); a crash loses the batch whole, never half a document.
        Inside this thread's ``batch`` they wait for its next commit instead."""
        self._write({document.id: (document, chunks) for document, chunks in entries})

    def delete(self, document_id: str) -> None:
        """Remove every chunk of ``document_id`` (nothing happens if none is indexed)."""
        self._write({document_id: None})

    def batch(self) -> AbstractContextManager[None]:
        """This thread's writes gathered into a commit every ``BATCH_DOCUMENTS`` documents
        or ``BATCH_SECONDS`` seconds, and one at the end (``index/keyword_batch.py``)."""
        return self._pending.batch()

    def flush(self) -> None:
        """Commit the writes a batch left waiting (nothing happens when none wait)."""
        if self._pending.waiting():
            self._commit({})

    def _write(self, entries: dict[str, Entry]) -> None:
        self._pending.write(entries, self._commit)

    def _commit(self, entries: dict[str, Entry]) -> None:
        """One commit of what waits, then of ``entries`` (so a removal follows the add it
        undoes); what waited waits again if the commit fails."""
        with self._lock, self._pending.taken() as waiting, self._writer() as writer:
            for document_id, entry in {**waiting, **entries}.items():
                writer.delete_documents_by_term(DOCUMENT_ID, document_id)
                if entry is not None:
                    document, chunks = entry
                    for chunk in chunks:
                        writer.add_document(chunk_entry(document, chunk))

    @contextmanager
    def _writer(self) -> Iterator[tantivy.IndexWriter]:
        # A writer per commit holds tantivy's writer lock only briefly, so another
        # process (the CLI beside a running server, a second worker) can write too; the
        # file lock queues those processes (``writer_lock``). No reload here: a search
        # reloads (``_searcher``), and a batch of commits need not pay for one each.
        with exclusive(lock_path(self._folder)):
            try:
                writer = self._open_writer()
                try:
                    yield writer
                    writer.commit()
                except BaseException:
                    writer.rollback()
                    raise
                finally:
                    writer.wait_merging_threads()
            except (OSError, ValueError) as exc:
                raise StoreError(f"keyword index write failed: {exc}", source=self._source) from exc

    def close(self) -> None:
        """Commit what a batch left waiting (its timer stops)."""
        self._pending.close()
        self.flush()

    def _open_writer(self) -> tantivy.IndexWriter:
        """A writer, waiting while another process holds tantivy's writer lock."""
        deadline = time.monotonic() + self._lock_wait
        pause = 0.02
        while True:
            try:
                return self._index.writer(heap_size=_WRITER_HEAP_BYTES, num_threads=1)
            except ValueError as exc:
                if "LockBusy" not in str(exc) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    # ------------------------------------------------------------------------- reading

    def document_ids(
        self, access: Access | None = None, *, among: Collection[str] | None = None
    ) -> frozenset[str]:
        """The documents with at least one live chunk in the index that ``access``, when
        given, may see (the same permission rule as the store's, read from the index),
        among ``among`` when given. Listing them all is remembered until the next commit
        (``keyword_listings``): a search pays for it once per commit, not every time, and
        reads a remembered one without reloading a searcher."""
        if among is None:
            kept = self._listings.kept(self._listings.generation(), _access_key(access))
            if kept is not None:
                return kept
        searcher, generation = self._searcher_at()
        if among is not None and len(among) <= CHECKED_ONE_BY_ONE:
            # A few named documents are checked one by one (~15 us each) rather than by
            # listing every document (~10 ms at 10k).
            visible = self._visible_query(access)
            return frozenset(ref for ref in among if self._holds(searcher, visible, ref))
        listed = self._visible(generation, searcher, access)
        return listed if among is None else listed & frozenset(among)  # a collection

    def _visible(
        self, generation: bytes | None, searcher: tantivy.Searcher, access: Access | None
    ) -> frozenset[str]:
        return self._listings.listed(
            generation, _access_key(access), lambda: _listed(searcher, self._visible_query(access))
        )

    def _visible_query(self, access: Access | None) -> tantivy.Query:
        if access is None or access.everything:
            return tantivy.Query.all_query()
        return permission_query(self._schema, access)

    def _holds(self, searcher: tantivy.Searcher, visible: tantivy.Query, document_id: str) -> bool:
        """Whether a live chunk of ``document_id`` matches ``visible``."""
        must = tantivy.Occur.Must
        query = tantivy.Query.boolean_query(
            [(must, visible), (must, exact_term(self._schema, DOCUMENT_ID, document_id))]
        )
        return bool(searcher.search(query, 1, count=False).hits)

    def search(
        self,
        query: str,
        access: Access,
        *,
        documents: Collection[str] | None = None,
        limit: int = 150,
    ) -> Sequence[Hit]:
        """The ``limit`` best chunks by BM25 among those ``access`` may see (and, when
        given, among ``documents``); mode "keyword", 1-based ``keyword_rank``."""
        if limit <= 0 or (documents is not None and not documents):
            return []
        searcher, generation = self._searcher_at()
        terms = query_terms(search_tokens(query), searcher, TEXT)
        if not terms:
            return []
        grams = query_terms(search_grams(query), searcher, GRAMS)
        narrowing = self._narrowing(searcher, generation, access, documents)
        filters = [unscored(f) for f in document_filters(self._schema, access, narrowing)]
        scored = text_query(self._schema, terms, grams)
        ranked = text = self._run(searcher, self._filtered(scored, filters), limit)
        if self.sections:
            pointed = self._pointed(searcher, terms, filters)
            titles = title_query(self._schema, terms, pointed)
            heading = self._run(searcher, self._filtered(titles, filters), limit)
            ranked = section_ranked(searcher, text, heading, set(terms))[:limit]
        chunk_ids, document_ids = self._ids.named(searcher, generation, [a for _, a in ranked])
        return RouteHits("keyword", chunk_ids, document_ids, [score for score, _ in ranked])

    def _narrowing(
        self,
        searcher: tantivy.Searcher,
        generation: bytes | None,
        access: Access,
        documents: Collection[str] | None,
    ) -> Collection[str] | None:
        """``documents`` when they narrow the search, None when they hold every document
        ``access`` may see (a knowledge base named whole): tantivy turns a term set into a
        bitset of every chunk it matches before each of the search's three queries, 32 ms
        of a 42 ms search over 1,175 named documents (12k chunks), while listing the
        visible ones on the same searcher costs ~2 ms. The permission filter stays."""
        if documents is None or len(documents) <= CHECKED_ONE_BY_ONE:
            return documents
        visible = self._visible(generation, searcher, access)
        return None if visible <= set(documents) else documents

    def _filtered(self, scored: tantivy.Query, filters: Sequence[tantivy.Query]) -> tantivy.Query:
        return filtered(self._schema, scored, filters, sections=self.sections)

    def _run(
        self, searcher: tantivy.Searcher, query: tantivy.Query, limit: int
    ) -> list[tuple[float, tantivy.DocAddress]]:
        try:
            return list(searcher.search(query, limit, count=False).hits)
        except ValueError as exc:
            raise StoreError(f"keyword search failed: {exc}", source=self._source) from exc

    def _pointed(
        self, searcher: tantivy.Searcher, terms: Sequence[str], filters: Sequence[tantivy.Query]
    ) -> dict[str, float]:
        """Title key -> weight of the sections that index or glossary entries matching
        the question point to (in the index pages the caller may see). Most libraries
        have no such page: then the query is not run (its term counts include deleted
        entries, so a page is never missed)."""
        if not any(searcher.doc_freq(ROLE, role) for role in POINTER_ROLES):
            return {}
        query = pointer_pages_query(self._schema, terms, filters)
        return pointer_weights(searcher, self._run(searcher, query, POINTER_PAGES), terms)

    def _searcher(self) -> tantivy.Searcher:
        # Reloading costs microseconds when nothing changed and makes commits by another
        # process (or another instance on the same folder) visible at once.
        self._index.reload()
        return self._index.searcher()

    def _searcher_at(self) -> tuple[tantivy.Searcher, bytes | None]:
        """A searcher up to date and the commit generation it holds: the same one read
        before and after the reload (opstamps only grow, so nothing was committed in
        between); None when a commit raced the reload (then nothing is remembered).
        While the generation stays, the last searcher is reused: a fresh one starts with
        cold caches, ~0.3 of a 1.5 CPU ms keyword search at 10k chunks (issue 28)."""
        before = self._listings.generation()
        held = self._held
        if held is not None and before is not None and held[0] == before:
            return held[1], before
        searcher = self._searcher()
        if before is None or before != self._listings.generation():
            return searcher, None
        self._held = (before, searcher)
        return searcher, before


def _listed(searcher: tantivy.Searcher, visible: tantivy.Query) -> frozenset[str]:
    """The documents with a live chunk that ``visible`` matches (the filter also makes
    deleted, not yet merged away, entries count zero)."""
    terms = searcher.terms_with_prefix(DOCUMENT_ID, "", filter_query=visible)
    return frozenset(term for term, count in terms if count > 0)


def _access_key(access: Access | None) -> AccessKey:
    """What a listing is remembered under: the caller's access tokens (None: everything)."""
    return None if access is None or access.everything else access.tokens
