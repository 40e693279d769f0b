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

Sections are searched too (``index/sections.py``): a third field, ``section``, holds the
tokens of the chunk's document title and section path and is scored with a boost
(``SECTION_BOOST``), so a question naming a chapter finds its chunks; each hit then inherits
part of its section's score (``SECTION_SHARE``). A document's own index or glossary pages
(titled Index / 索引 / Glossary / 术语表) point terms at sections: the question's terms are
looked up in them first, and a section an entry names gets ``POINTER_BOOST`` through the
``titles`` field (exact title keys). Back-of-book index chunks are themselves never hits
(a list of terms is no answer); glossary chunks are. ``sections=False`` searches the text
fields alone, as before (benchmarks compare the two in one run).

An index written with an older schema is emptied when opened (the caller's ``sync``
then indexes the stored documents again): the index is derived data. ``SCHEMA_VERSION``
names the schema (a field carries it), so bumping it rebuilds the index even where the
fields would otherwise match. A folder that cannot
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
from askalong.index.sections import (
    index_pointers,
    is_index_page,
    normal_title,
    section_scores,
    section_text,
    title_keys,
)
from askalong.text.tokens import gram_tokens, tokenize
from askalong.types import Access, Chunk, Document, Hit

CHUNK_ID = "chunk_id"
DOCUMENT_ID = "document_id"
TEXT = "text"
GRAMS = "grams"
OWNER = "owner"
VISIBILITY = "visibility"
ORG = "org"
SECTION = "section"
TITLES = "titles"
SECTION_KEY = "section_key"
ROLE = "role"  # "index" or "glossary" for a document's own index pages
POINTED = "pointed"  # an index page's text, stored (not indexed) for its entries
HEADINGS = "headings"  # each title's tokens, a line each, stored (is one fully asked?)

SCHEMA_VERSION = 2  # 2: section, titles, section key, role, pointed and headings fields
# Tuned on the PostgreSQL manual (benchmarks/long_manual.py, keyword hit@1/5/10 0.21 /
# 0.46 / 0.61 with the text alone; 0.29 / 0.50 / 0.61 so): a title match weighs a fifth
# of a text match (at 1.0, words like "table" in hundreds of reference-page titles pull
# the wrong pages up: hit@10 0.46); a chunk gains a tenth of its siblings' scores; an
# index entry's section gains up to about what a well-matched chunk scores.
SECTION_BOOST = 0.2
POINTER_BOOST = 8.0
SECTION_SHARE = 0.1
# A title whose every word is asked ("transaction isolation" -> 13.2. Transaction
# Isolation) counts twice: a whole title asked for is usually what a reader means, but on
# questions in users' words larger factors lift the wrong whole titles ("dropped a table"
# -> DROP TABLE): keyword hit@1 0.29 at 0, 0.18 at 2, 0.11 at 4 (hit@10 0.61 up to 4).
FULL_TITLE_BOOST = 1.0
POINTER_PAGES = 3  # index page chunks read for entries per query

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
# 17 parallel adds at load 30 lost one add, most likely to a 10 s wait here; like the
# store's busy timeout, wait long rather than fail an add.
_LOCK_WAIT_SECONDS = 60.0


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
    builder.add_text_field(SECTION, tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field(TITLES, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(SECTION_KEY, stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    builder.add_bytes_field(POINTED, stored=True)
    builder.add_bytes_field(HEADINGS, stored=True)
    builder.add_text_field(f"schema_v{SCHEMA_VERSION}", tokenizer_name="raw")
    for name in (OWNER, VISIBILITY, ORG):
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    return builder.build()


class KeywordIndex:
    """A BM25 index of chunks, with the permission fields of their documents."""

    def __init__(self, folder: Path, *, sections: bool = True) -> None:
        self.sections = sections  # False: the text fields alone (see the module docstring)
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
        heading = section_text(document.title, chunk.section_path)
        entry.add_text(SECTION, " ".join(dict.fromkeys(search_tokens(heading))))
        lines = (" ".join(search_tokens(normal_title(t))) for t in heading.splitlines())
        entry.add_bytes(HEADINGS, "\n".join(lines).encode("utf-8"))
        for key in title_keys(document.title, chunk.section_path):
            entry.add_text(TITLES, key)
        entry.add_text(SECTION_KEY, f"{document.id}/{len(chunk.section_path)}/{heading}"[:2000])
        role = _role(document.title, chunk.section_path)
        if role is not None:
            entry.add_text(ROLE, role)
            entry.add_bytes(POINTED, chunk.text.encode("utf-8"))
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
        filters = [_unscored(f) for f in self._filters(access, documents)]
        text = self._run(searcher, self._query(self._text_query(terms, grams), filters), limit)
        if not self.sections:
            scored = [(score, searcher.doc(address)) for score, address in text]
        else:
            titles = self._title_query(searcher, terms, filters)
            heading = self._run(searcher, self._query(titles, filters), limit)
            scored = _section_ranked(searcher, text, heading, set(terms))[:limit]
        return [_hit(rank, score, stored) for rank, (score, stored) in enumerate(scored, start=1)]

    def _query(self, scored: tantivy.Query, filters: Sequence[tantivy.Query]) -> tantivy.Query:
        """``scored`` among the chunks the filters let through; with sections on, never a
        back-of-book index chunk (a list of terms answers nothing)."""
        must = tantivy.Occur.Must
        clauses = [(must, scored), *((must, f) for f in filters)]
        if self.sections:
            clauses.append((tantivy.Occur.MustNot, self._term(ROLE, "index")))
        return tantivy.Query.boolean_query(clauses)

    def _run(
        self, searcher: tantivy.Searcher, query: tantivy.Query, limit: int
    ) -> list[tuple[float, tantivy.DocAddress]]:
        try:
            return list(searcher.search(query, limit, count=False).hits)
        except ValueError as exc:
            raise StoreError(f"keyword search failed: {exc}", source=self._source) from exc

    def _title_query(
        self, searcher: tantivy.Searcher, terms: Sequence[str], filters: Sequence[tantivy.Query]
    ) -> tantivy.Query:
        """The terms in section titles, OR the sections the document's index pages point
        the terms at (a constant score each)."""
        should = tantivy.Occur.Should
        clauses = [(should, self._field_term(SECTION, t)) for t in terms]
        for key, weight in self._pointed(searcher, terms, filters).items():
            # This query's scores are scaled by SECTION_BOOST; a pointer's must not be.
            score = POINTER_BOOST * weight / max(SECTION_BOOST, 1e-6)
            pointer = tantivy.Query.const_score_query(self._term(TITLES, key), score)
            clauses.append((should, pointer))
        return tantivy.Query.boolean_query(clauses)

    def _pointed(
        self, searcher: tantivy.Searcher, terms: Sequence[str], filters: Sequence[tantivy.Query]
    ) -> dict[str, float]:
        """Title key -> weight of the sections that index or glossary entries matching
        the question point to (in the index pages the caller may see)."""
        must, should = tantivy.Occur.Must, tantivy.Occur.Should
        roles = [(should, self._term(ROLE, r)) for r in ("index", "glossary")]
        words = [(should, self._field_term(TEXT, t)) for t in terms]
        query = tantivy.Query.boolean_query(
            [
                (must, _unscored(tantivy.Query.boolean_query(roles))),
                (must, tantivy.Query.boolean_query(words)),
                *((must, f) for f in filters),
            ]
        )
        weights: dict[str, float] = {}
        for _, address in self._run(searcher, query, POINTER_PAGES):
            text = bytes(searcher.doc(address).get_first(POINTED) or b"").decode("utf-8")
            for pointer in index_pointers(text, terms, search_tokens):
                for key in pointer.targets:
                    weights[key] = weights.get(key, 0.0) + pointer.weight
        return weights

    def _searcher(self) -> tantivy.Searcher:
        # Reloading costs microseconds when nothing changed and makes commits by another
        # process (or another instance on the same folder) visible at once.
        self._index.reload()
        return self._index.searcher()

    def _text_query(self, terms: Sequence[str], grams: Sequence[str]) -> tantivy.Query:
        """SHOULD of every term in its field: the score is the sum of both fields' BM25."""
        should = tantivy.Occur.Should
        fielded = [(TEXT, t) for t in terms] + [(GRAMS, g) for g in grams]
        return tantivy.Query.boolean_query([(should, self._field_term(f, t)) for f, t in fielded])

    def _field_term(self, field: str, token: str) -> tantivy.Query:
        return tantivy.Query.term_query(self._schema, field, token, "freq")

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


def _hit(rank: int, score: float, stored: tantivy.Document) -> Hit:
    return Hit(
        chunk_id=str(stored.get_first(CHUNK_ID)),
        document_id=str(stored.get_first(DOCUMENT_ID)),
        score=score,
        mode="keyword",
        keyword_score=score,
        keyword_rank=rank,
    )


def _section_ranked(
    searcher: tantivy.Searcher,
    text: Sequence[tuple[float, tantivy.DocAddress]],
    title: Sequence[tuple[float, tantivy.DocAddress]],
    terms: set[str],
) -> list[tuple[float, tantivy.Document]]:
    """The chunks either query found, scored by ``section_scores``, best first."""
    text_of = {_key(address): score for score, address in text}
    title_of = {_key(address): score for score, address in title}
    addresses = {_key(address): address for _, address in (*text, *title)}
    stored = {key: searcher.doc(address) for key, address in addresses.items()}
    keys = list(addresses)
    scores = section_scores(
        [text_of.get(key, 0.0) for key in keys],
        [title_of.get(key, 0.0) for key in keys],
        [str(stored[key].get_first(SECTION_KEY)) for key in keys],
        [_fully_asked(stored[key], terms) for key in keys],
        boost=SECTION_BOOST,
        full=FULL_TITLE_BOOST,
        share=SECTION_SHARE,
    )
    order = sorted(range(len(keys)), key=lambda i: -scores[i])
    return [(scores[i], stored[keys[i]]) for i in order]


def _fully_asked(stored: tantivy.Document, terms: set[str]) -> bool:
    """Whether every word of one of the chunk's titles is in the question."""
    headings = bytes(stored.get_first(HEADINGS) or b"").decode("utf-8")
    return any(line and set(line.split()) <= terms for line in headings.splitlines())


def _key(address: tantivy.DocAddress) -> tuple[int, int]:
    return (address.segment_ord, address.doc)


def _role(title: str, section_path: Sequence[str]) -> str | None:
    """ "index" or "glossary" for a chunk of its document's own index pages, else None."""
    if not is_index_page(title, section_path):
        return None
    named = {normal_title(text) for text in (title, *section_path[:1])}
    return "index" if named & {"index", "索引"} else "glossary"


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
