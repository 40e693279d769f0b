"""The keyword route on PostgreSQL: BM25 over our own tokens, scored in SQL.

``PostgresKeywordRoute`` is the server ``KeywordRoute`` (``index/base.py``). It indexes a
chunk as the tantivy route does (``keyword_schema.indexed_chunk``: rjieba words and
English stems, Han grams, the description, the section titles) but as term rows
(``pg_sql/keyword.sql``), and scores them with tantivy's BM25 in one SQL query each
(``pg_bm25``), then orders them section-aware with the same pure functions
(``sections.section_scores``, ``keyword_query``'s constants). PostgreSQL's own
``ts_rank_cd`` was not used: it is no BM25 (no idf), and the goal is the embedded route's
ranking (benchmarks/results/server-keyword-2026-12-04.md).

The permission filter, the document filter and the role filter are inside each query,
before its LIMIT. Writers take turns (a lock on the totals row), as tantivy's do: every
write changes the statistics (the totals, each term's df in ``keyword_terms``). So a
thread that adds document after document (a worker's run of jobs) gathers its writes
into one transaction per many, as the tantivy route does (``keyword_batch``): the lock
is taken once per batch, not once per page.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from dataclasses import field as default

from askalong.index.keyword_batch import Entry, PendingWrites
from askalong.index.keyword_query import (
    CONTEXT_WEIGHT,
    FULL_TITLE_BOOST,
    MAX_QUERY_TERMS,
    POINTER_BOOST,
    POINTER_PAGES,
    SECTION_BOOST,
    SECTION_SHARE,
    asks_a_whole_title,
    pointed_sections,
)
from askalong.index.keyword_schema import (
    SCHEMA_VERSION,
    IndexedChunk,
    indexed_chunk,
    search_grams,
    search_tokens,
)
from askalong.index.pg_bm25 import (
    CHUNKS,
    CONTEXT,
    GRAMS,
    SECTION,
    TEXT,
    Filters,
    Scored,
    bm25,
    bm25_statement,
    document_frequencies,
    scored,
)
from askalong.index.pg_schema import Database, Pool, apply_schema, connected
from askalong.index.sections import section_scores
from askalong.types import Access, Chunk, Document, Hit

Terms = list[tuple[int, str, float]]  # (field, term, weight)
_TABLES = "keyword_postings, keyword_terms, keyword_chunks, keyword_documents"


def renew_tokens(connection: Database) -> bool:
    """Empty the route when its rows were written with other tokens than
    ``SCHEMA_VERSION``'s (or before versions were kept): a query's tokens would no longer
    meet them. ``sync`` then indexes every stored document again, as it does for an
    emptied tantivy index. Whether it emptied the route."""
    with connection.transaction():
        _lock_writes(connection)
        row = connection.execute("SELECT version FROM keyword_version").fetchone()
        if row is not None and row[0] == SCHEMA_VERSION:
            return False
        connection.execute(f"TRUNCATE {_TABLES}")
        connection.execute("UPDATE keyword_totals SET tokens = 0")
        connection.execute(
            "INSERT INTO keyword_version (version) VALUES (%s) "
            "ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version",
            (SCHEMA_VERSION,),
        )
    return True


class PostgresKeywordRoute:
    """BM25 over chunks in PostgreSQL, with the permission fields of their documents."""

    def __init__(self, pool: Pool, *, sections: bool = True) -> None:
        self.sections = sections  # False: the text fields alone, as KeywordIndex(sections=False)
        self._pool = pool
        self._pending = PendingWrites(self.flush)
        self._lock = threading.Lock()  # this process's commits, in the order they were made
        with connected(pool) as connection:
            apply_schema(connection, "keyword")
            renew_tokens(connection)

    # ------------------------------------------------------------------------- writing

    def add(self, document: Document, chunks: Sequence[Chunk]) -> None:
        self.add_many([(document, chunks)])

    def add_many(self, entries: Iterable[tuple[Document, Sequence[Chunk]]]) -> None:
        """Index the documents' chunks in one transaction, replacing what each had
        (inside this thread's ``batch``: at its next commit)."""
        self._pending.write({d.id: (d, chunks) for d, chunks in entries}, self._commit)

    def delete(self, document_id: str) -> None:
        self._pending.write({document_id: None}, self._commit)

    def batch(self) -> AbstractContextManager[None]:
        """This thread's writes gathered into a transaction every ``BATCH_DOCUMENTS``
        documents or ``BATCH_SECONDS`` seconds, and one at the end (``keyword_batch``)."""
        return self._pending.batch()

    def flush(self) -> None:
        """Commit the writes a batch left waiting (nothing happens when none wait)."""
        if self._pending.waiting():
            self._commit({})

    def close(self) -> None:
        """Commit what a batch left waiting (its timer stops)."""
        self._pending.close()
        self.flush()

    def _commit(self, entries: dict[str, Entry]) -> None:
        """One transaction: what waits, then ``entries`` (a removal after the add it
        undoes); what waited waits again if the transaction fails."""
        with self._lock, self._pending.taken() as waiting:
            writes = {**waiting, **entries}
            with connected(self._pool) as connection, connection.transaction():
                _lock_writes(connection)
                change = _removed(connection, sorted(writes))
                for entry in writes.values():
                    if entry is not None:
                        _insert(connection, *entry, change)
                _apply(connection, change)

    # ------------------------------------------------------------------------- reading

    def document_ids(
        self, access: Access | None = None, *, among: Collection[str] | None = None
    ) -> set[str]:
        """The documents with chunks in the route that ``access`` may see, among ``among``."""
        query = "SELECT document_id FROM keyword_documents WHERE TRUE"
        params: list[object] = []
        if access is not None and not access.everything:
            query += " AND access && %s::text[]"
            params.append(list(access.tokens))
        if among is not None:
            query += " AND document_id = ANY(%s::text[])"
            params.append(sorted(among))
        with connected(self._pool) as connection:
            return {str(row[0]) for row in connection.execute(query, params)}

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
        tokens = None if access.everything else access.tokens
        with connected(self._pool) as connection:
            words = _query_terms(connection, TEXT, search_tokens(query))
            if not words:
                return []
            grams = _query_terms(connection, GRAMS, search_grams(query))
            filters = self._filters(tokens, documents)
            if not self.sections:
                text = bm25(connection, text_terms(words, grams), filters, limit)
                ranked = [(found.score, found) for found in text]
            else:
                text, heading = self._sectioned(connection, words, grams, filters, limit)
                ranked = section_ranked(text, heading, set(words))[:limit]
        return [_hit(rank, score, found) for rank, (score, found) in enumerate(ranked, start=1)]

    def _filters(self, tokens: Sequence[str] | None, documents: Collection[str] | None) -> Filters:
        # With sections on, a back-of-book index chunk is never a hit (a list of terms
        # answers nothing), as in the tantivy route.
        return Filters(tokens, documents, roles=("index",) if self.sections else ())

    def _sectioned(
        self,
        connection: Database,
        words: Sequence[str],
        grams: Sequence[str],
        filters: Filters,
        limit: int,
    ) -> tuple[list[Scored], list[Scored]]:
        """The text query's chunks and the title query's, sent in one pipeline (one round
        trip, with the check for index pages); only where the library has index or
        glossary pages does the title query run again, with what they point at."""
        section = [(SECTION, w, 1.0) for w in words]
        text_query = bm25_statement(text_terms(words, grams), filters, limit)
        title_query = bm25_statement(section, filters, limit)
        assert text_query is not None and title_query is not None  # words are never empty
        with connection.pipeline():
            pages = connection.execute(_INDEX_PAGES)
            text = connection.execute(*text_query)
            titles = connection.execute(*title_query)
        heading = scored(titles.fetchall())
        if _true(pages.fetchone()):
            heading = self._pointed(connection, words, filters, limit)
        return scored(text.fetchall()), heading

    def _pointed(
        self, connection: Database, words: Sequence[str], filters: Filters, limit: int
    ) -> list[Scored]:
        """The chunks whose section titles hold the words, or that the caller's index or
        glossary pages point the words at (a constant each, as ``title_query``)."""
        pages = replace(filters, roles=("index", "glossary"), only=True)
        found = bm25(connection, [(TEXT, w, 1.0) for w in words], pages, POINTER_PAGES)
        weights = pointed_sections((page.pointed or "" for page in found), words)
        scale = POINTER_BOOST / max(SECTION_BOOST, 1e-6)  # the title score is scaled later
        pointed = {key: scale * weight for key, weight in weights.items()}
        return bm25(connection, [(SECTION, w, 1.0) for w in words], filters, limit, pointed)


def text_terms(words: Sequence[str], grams: Sequence[str]) -> Terms:
    """The text query: every word and gram in its field, and both, at ``CONTEXT_WEIGHT``,
    in the description's (``keyword_query.text_query``)."""
    described = dict.fromkeys([*words, *grams])
    return [
        *((TEXT, w, 1.0) for w in words),
        *((GRAMS, g, 1.0) for g in grams),
        *((CONTEXT, t, CONTEXT_WEIGHT) for t in described),
    ]


def section_ranked(
    text: Sequence[Scored], title: Sequence[Scored], words: set[str]
) -> list[tuple[float, Scored]]:
    """The chunks either query found, scored by ``section_scores``, best first (as
    ``keyword_query.section_ranked``)."""
    text_of = {found.chunk_id: found.score for found in text}
    title_of = {found.chunk_id: found.score for found in title}
    chunks = {found.chunk_id: found for found in (*text, *title)}
    keys = list(chunks)
    scores = section_scores(
        [text_of.get(key, 0.0) for key in keys],
        [title_of.get(key, 0.0) for key in keys],
        [chunks[key].section_key for key in keys],
        [asks_a_whole_title(chunks[key].headings, words) for key in keys],
        boost=SECTION_BOOST,
        full=FULL_TITLE_BOOST,
        share=SECTION_SHARE,
    )
    order = sorted(range(len(keys)), key=lambda i: -scores[i])
    return [(scores[i], chunks[keys[i]]) for i in order]


def _query_terms(connection: Database, field: int, tokens: Sequence[str]) -> list[str]:
    """Distinct tokens in query order; past ``MAX_QUERY_TERMS``, the rarest ones present
    (as ``keyword_query.query_terms``)."""
    distinct = list(dict.fromkeys(tokens))
    if len(distinct) <= MAX_QUERY_TERMS:
        return distinct
    frequency = document_frequencies(connection, field, distinct)
    keep = set(sorted(frequency, key=lambda term: frequency[term])[:MAX_QUERY_TERMS])
    return [term for term in distinct if term in keep]


# Most libraries have no index or glossary pages: then the pointer query is not run.
_INDEX_PAGES = "SELECT EXISTS (SELECT 1 FROM keyword_chunks WHERE role IS NOT NULL)"


def _true(row: tuple[object, ...] | None) -> bool:
    return bool(row and row[0])


def _hit(rank: int, score: float, found: Scored) -> Hit:
    return Hit(
        chunk_id=found.chunk_id,
        document_id=found.document_id,
        score=score,
        mode="keyword",
        keyword_score=score,
        keyword_rank=rank,
    )


# ----------------------------------------------------------------------------- writing


def _lock_writes(connection: Database) -> None:
    """One writer at a time, as tantivy's writer lock: the statistics every write
    changes (the totals, each term's df) are then never updated in two orders at once."""
    connection.execute("SELECT tokens FROM keyword_totals WHERE field = %s FOR UPDATE", (CHUNKS,))


@dataclass
class _Change:
    """What a write does to the statistics: tokens per field (``CHUNKS``: chunks) and
    chunks per (field, term)."""

    totals: Counter[int] = default(default_factory=Counter)
    terms: Counter[tuple[int, str]] = default(default_factory=Counter)


def _removed(connection: Database, document_ids: Sequence[str]) -> _Change:
    """Delete the documents' rows; the change that makes to the statistics (negative)."""
    change = _Change()
    gone = connection.execute(
        "DELETE FROM keyword_chunks WHERE document_id = ANY(%s) RETURNING row",
        (list(document_ids),),
    ).fetchall()
    change.totals[CHUNKS] -= len(gone)
    removed = connection.execute(
        "DELETE FROM keyword_postings WHERE row = ANY(%s) RETURNING field, term, tf",
        ([row for (row,) in gone],),
    )
    for term_field, term, tf in removed:
        change.totals[int(term_field)] -= int(tf)
        change.terms[(int(term_field), str(term))] -= 1
    connection.execute(
        "DELETE FROM keyword_documents WHERE document_id = ANY(%s)", (list(document_ids),)
    )
    return change


def _insert(
    connection: Database,
    document: Document,
    chunks: Sequence[Chunk],
    change: _Change,
) -> None:
    """Write one document's rows, counting what they add to the statistics."""
    if not chunks:
        return
    indexed = [indexed_chunk(document, chunk) for chunk in chunks]
    connection.execute(
        "INSERT INTO keyword_documents (document_id, access) VALUES (%s, %s)",
        (document.id, list(indexed[0].access)),
    )
    rows = _new_rows(connection, len(chunks))
    with connection.cursor().copy(
        "COPY keyword_chunks (row, chunk_id, document_id, role, section_key, headings, titles,"
        " pointed) FROM STDIN"
    ) as copy:
        for row, chunk, entry in zip(rows, chunks, indexed, strict=True):
            pointed = chunk.text if entry.role is not None else None
            fields = (entry.role, entry.section_key, entry.headings, entry.titles, pointed)
            copy.write_row((row, chunk.id, document.id, *fields))
    with connection.cursor().copy(
        "COPY keyword_postings (field, term, row, tf, length) FROM STDIN"
    ) as copy:
        for row, entry in zip(rows, indexed, strict=True):
            for term_field, term, tf, length in postings(entry):
                copy.write_row((term_field, term, row, tf, length))
                change.totals[term_field] += tf
                change.terms[(term_field, term)] += 1
    change.totals[CHUNKS] += len(chunks)


def postings(entry: IndexedChunk) -> Iterable[tuple[int, str, int, int]]:
    """(field, term, tf, the field's length) for every term of one indexed chunk."""
    for field, tokens in (
        (TEXT, entry.text),
        (GRAMS, entry.grams),
        (CONTEXT, entry.context),
        (SECTION, entry.section),
    ):
        for term, tf in Counter(tokens).items():
            yield field, term, tf, len(tokens)


def _new_rows(connection: Database, count: int) -> list[int]:
    rows = connection.execute(
        "SELECT nextval('keyword_chunks_row_seq') FROM generate_series(1, %s)", (count,)
    ).fetchall()
    return [int(row) for (row,) in rows]


def _apply(connection: Database, change: _Change) -> None:
    """Apply a write's change to the totals and the terms' df."""
    for total in sorted(change.totals):
        connection.execute(
            "UPDATE keyword_totals SET tokens = tokens + %s WHERE field = %s",
            (change.totals[total], total),
        )
    terms = sorted((key, n) for key, n in change.terms.items() if n)
    connection.execute(
        "INSERT INTO keyword_terms (field, term, df) "
        "SELECT * FROM unnest(%s::smallint[], %s::text[], %s::integer[]) "
        "ON CONFLICT (field, term) DO UPDATE SET df = keyword_terms.df + excluded.df",
        ([f for (f, _), _ in terms], [t for (_, t), _ in terms], [n for _, n in terms]),
    )
