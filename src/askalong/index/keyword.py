"""The keyword route: BM25 over our own tokens, in a tantivy index on disk.

We tokenise with ``askalong.text.tokens.tokenize`` (rjieba for Chinese, Snowball stems for
English) and hand tantivy the tokens space-joined in a field analysed by its
``whitespace`` tokenizer, so tantivy's BM25 (k1 = 1.2, b = 0.75,
idf = ln(1 + (N - n + 0.5) / (n + 0.5))) runs over exactly our tokens. Text with Chinese
in it also fills a second field, ``grams`` (``askalong.text.tokens.gram_tokens``: Han characters
and bigrams), and a Chinese query is scored on both: the chunk's score is the sum of the
two fields' BM25. Queries are built from the same tokens as a boolean SHOULD of term
queries: no query-parser syntax, so nothing the user types can change the query's
structure.

An index written with an older schema is emptied when opened (the caller's ``sync``
then indexes the stored documents again): the index is derived data. A folder that cannot
be opened raises on first use, not on construction, so it stops only what reads or writes it
(``IndexUnreadable``, naming ``askalong doctor --repair``) and listing or showing
documents, which only the store serves, keeps working.

The permission filter and the document filter are MUST clauses of the same query,
scored zero, so a document the caller may not see never takes a place in the top-K.
``KeywordIndex`` is the local ``KeywordRoute`` (``index/base.py``); its permission fields
also decide what the local vector route may score (``index/vector_route.py``).
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import tantivy

from askalong.errors import IndexUnreadable, StoreError
from askalong.text.tokens import gram_tokens, tokenize
from askalong.types import Access, Chunk, Document, Hit

CHUNK_ID = "chunk_id"
DOCUMENT_ID = "document_id"
TEXT = "text"
GRAMS = "grams"
OWNER = "owner"
VISIBILITY = "visibility"
ORG = "org"

# Long queries keep only their rarest terms: the common ones barely move BM25 and each
# term costs a posting-list walk.
MAX_QUERY_TERMS = 64
# Past this many named documents (a collection) listing them all and intersecting is
# cheaper than one check each: 1,169 checks took 111 ms, the listing 8 ms
# (benchmarks/collection_search.py).
CHECKED_ONE_BY_ONE = 200
# A "word" this long is a hash or an encoded blob, never something a user searches for;
# dropping it keeps every term far below tantivy's 65,530-byte term limit.
MAX_TOKEN_CHARS = 80
_WRITER_HEAP_BYTES = 32_000_000
_LOCK_WAIT_SECONDS = 10.0


def search_tokens(text: str) -> list[str]:
    """The tokens indexed for (and searched with) ``text``."""
    return [token for token in tokenize(text) if len(token) <= MAX_TOKEN_CHARS]


def search_grams(text: str) -> list[str]:
    """The tokens of the ``grams`` field for ``text`` (none without Chinese)."""
    return [token for token in gram_tokens(text) if len(token) <= MAX_TOKEN_CHARS]


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field(CHUNK_ID, stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(DOCUMENT_ID, stored=True, tokenizer_name="raw", index_option="basic")
    # "freq" keeps term frequencies for BM25; we never run phrase queries, so no positions.
    builder.add_text_field(TEXT, tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field(GRAMS, tokenizer_name="whitespace", index_option="freq")
    for name in (OWNER, VISIBILITY, ORG):
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    return builder.build()


class KeywordIndex:
    """A BM25 index of chunks, with the permission fields of their documents."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._source = str(folder)
        self._schema = _schema()
        self._lock = threading.Lock()
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
        rebuild goes batch by batch); a crash loses the batch whole, never half a document."""
        with self._writer() as writer:
            for document, chunks in entries:
                writer.delete_documents_by_term(DOCUMENT_ID, document.id)
                for chunk in chunks:
                    writer.add_document(self._entry(document, chunk))

    def delete(self, document_id: str) -> None:
        """Remove every chunk of ``document_id`` (nothing happens if none is indexed)."""
        with self._writer() as writer:
            writer.delete_documents_by_term(DOCUMENT_ID, document_id)

    @contextmanager
    def _writer(self) -> Iterator[tantivy.IndexWriter]:
        # A writer per operation holds tantivy's writer lock only briefly, so another
        # process (the CLI beside a running server) can write too.
        with self._lock:
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
                self._index.reload()
            except (OSError, ValueError) as exc:
                raise StoreError(f"keyword index write failed: {exc}", source=self._source) from exc

    def _open_writer(self) -> tantivy.IndexWriter:
        """A writer, waiting while another process holds tantivy's writer lock."""
        deadline = time.monotonic() + _LOCK_WAIT_SECONDS
        pause = 0.02
        while True:
            try:
                return self._index.writer(heap_size=_WRITER_HEAP_BYTES, num_threads=1)
            except ValueError as exc:
                if "LockBusy" not in str(exc) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def _entry(self, document: Document, chunk: Chunk) -> tantivy.Document:
        entry = tantivy.Document()
        entry.add_text(CHUNK_ID, chunk.id)
        entry.add_text(DOCUMENT_ID, document.id)
        entry.add_text(TEXT, " ".join(search_tokens(chunk.text)))
        grams = search_grams(chunk.text)
        if grams:
            entry.add_text(GRAMS, " ".join(grams))
        entry.add_text(OWNER, document.owner)
        entry.add_text(VISIBILITY, document.visibility)
        for tag in document.org_tags:
            entry.add_text(ORG, tag)
        return entry

    # ------------------------------------------------------------------------- reading

    def document_ids(
        self, access: Access | None = None, *, among: Collection[str] | None = None
    ) -> set[str]:
        """The documents with at least one live chunk in the index that ``access``, when
        given, may see (the same permission rule as the store's, read from the index, which
        costs ~1/10 of listing 10k documents from the store), among ``among`` when given."""
        searcher = self._searcher()
        visible = self._visible_query(access)
        if among is not None and len(among) <= CHECKED_ONE_BY_ONE:
            # A few named documents are checked one by one (~15 us each) rather than by
            # listing every document (~10 ms at 10k).
            return {ref for ref in among if self._holds(searcher, visible, ref)}
        # The filter also makes deleted (not yet merged away) entries count zero.
        terms = searcher.terms_with_prefix(DOCUMENT_ID, "", filter_query=visible)
        listed = {term for term, count in terms if count > 0}
        return listed if among is None else listed & set(among)  # many named: a collection

    def _visible_query(self, access: Access | None) -> tantivy.Query:
        if access is None or access.everything:
            return tantivy.Query.all_query()
        return self._permission_query(access)

    def _holds(self, searcher: tantivy.Searcher, visible: tantivy.Query, document_id: str) -> bool:
        """Whether a live chunk of ``document_id`` matches ``visible``."""
        must = tantivy.Occur.Must
        query = tantivy.Query.boolean_query(
            [(must, visible), (must, self._term(DOCUMENT_ID, document_id))]
        )
        return bool(searcher.search(query, 1, count=False).hits)

    def search(
        self,
        query: str,
        access: Access,
        *,
        documents: Collection[str] | None = None,
        limit: int = 150,
    ) -> list[Hit]:
        """The ``limit`` best chunks by BM25 among those ``access`` may see (and, when
        given, among ``documents``); mode "keyword", 1-based ``keyword_rank``."""
        if limit <= 0 or (documents is not None and not documents):
            return []
        searcher = self._searcher()
        terms = _query_terms(search_tokens(query), searcher, TEXT)
        if not terms:
            return []
        grams = _query_terms(search_grams(query), searcher, GRAMS)
        clauses = [(tantivy.Occur.Must, self._text_query(terms, grams))]
        clauses += [(tantivy.Occur.Must, _unscored(f)) for f in self._filters(access, documents)]
        try:
            found = searcher.search(tantivy.Query.boolean_query(clauses), limit, count=False)
        except ValueError as exc:
            raise StoreError(f"keyword search failed: {exc}", source=self._source) from exc
        return [
            self._hit(searcher, rank, score, address)
            for rank, (score, address) in enumerate(found.hits, start=1)
        ]

    def _searcher(self) -> tantivy.Searcher:
        # Reloading costs microseconds when nothing changed and makes commits by another
        # process (or another instance on the same folder) visible at once.
        self._index.reload()
        return self._index.searcher()

    def _text_query(self, terms: Sequence[str], grams: Sequence[str]) -> tantivy.Query:
        """SHOULD of every term in its field: the score is the sum of both fields' BM25."""
        should = tantivy.Occur.Should
        fielded = [(TEXT, t) for t in terms] + [(GRAMS, g) for g in grams]
        return tantivy.Query.boolean_query(
            [(should, tantivy.Query.term_query(self._schema, f, t, "freq")) for f, t in fielded]
        )

    def _filters(self, access: Access, documents: Collection[str] | None) -> list[tantivy.Query]:
        filters = [] if access.everything else [self._permission_query(access)]
        if documents is not None:
            ids = sorted(documents)
            filters.append(tantivy.Query.term_set_query(self._schema, DOCUMENT_ID, ids))
        return filters

    def _permission_query(self, access: Access) -> tantivy.Query:
        """public OR owner == user OR (visibility == org AND an org tag in access.orgs)."""
        should, must = tantivy.Occur.Should, tantivy.Occur.Must
        clauses = [
            (should, self._term(VISIBILITY, "public")),
            (should, self._term(OWNER, access.user)),
        ]
        if access.orgs:
            in_org = tantivy.Query.term_set_query(self._schema, ORG, list(access.orgs))
            shared = tantivy.Query.boolean_query(
                [(must, self._term(VISIBILITY, "org")), (must, in_org)]
            )
            clauses.append((should, shared))
        return tantivy.Query.boolean_query(clauses)

    def _term(self, field: str, value: str) -> tantivy.Query:
        return tantivy.Query.term_query(self._schema, field, value, "basic")

    def _hit(
        self, searcher: tantivy.Searcher, rank: int, score: float, address: tantivy.DocAddress
    ) -> Hit:
        stored = searcher.doc(address)
        return Hit(
            chunk_id=str(stored.get_first(CHUNK_ID)),
            document_id=str(stored.get_first(DOCUMENT_ID)),
            score=score,
            mode="keyword",
            keyword_score=score,
            keyword_rank=rank,
        )


def _unscored(query: tantivy.Query) -> tantivy.Query:
    # A filter must not add to the BM25 sum; a zero constant score keeps it pure.
    return tantivy.Query.const_score_query(query, 0.0)


def _query_terms(tokens: Sequence[str], searcher: tantivy.Searcher, field: str) -> list[str]:
    """Distinct query tokens in query order; past ``MAX_QUERY_TERMS``, the rarest ones
    that occur in ``field`` (the highest idf: they decide BM25's ranking)."""
    distinct = list(dict.fromkeys(tokens))
    if len(distinct) <= MAX_QUERY_TERMS:
        return distinct
    frequency = {term: searcher.doc_freq(field, term) for term in distinct}
    present = [term for term in distinct if frequency[term] > 0]
    rarest = sorted(present, key=lambda term: frequency[term])[:MAX_QUERY_TERMS]
    keep = set(rarest)
    return [term for term in distinct if term in keep]
