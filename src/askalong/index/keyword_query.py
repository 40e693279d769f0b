"""The keyword route's queries, and the section-aware order of what they find.

Queries are built from our own tokens as a boolean SHOULD of term queries: no
query-parser syntax, so nothing the user types can change the query's structure. A
Chinese query is scored on both text fields: the chunk's score is the sum of the two
fields' BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5))).

Sections are searched too (``index/sections.py``): the ``section`` field is scored with a
boost (``SECTION_BOOST``), so a question naming a chapter finds its chunks; each hit then
inherits part of its section's score (``SECTION_SHARE``). A document's own index or
glossary pages point terms at sections: the question's terms are looked up in them
first, and a section an entry names gets ``POINTER_BOOST`` through the ``titles`` field
(exact title keys). Back-of-book index chunks are themselves never hits (a list of terms
is no answer); glossary chunks are.

The permission filter and the document filter are MUST clauses of the same query,
scored zero, so a document the caller may not see never takes a place in the top-K.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import tantivy

from askalong.index.keyword_schema import (
    ACCESS,
    CONTEXT,
    DOCUMENT_ID,
    GRAMS,
    HEADINGS,
    POINTED,
    ROLE,
    SECTION,
    SECTION_NUMBER,
    TEXT,
    TITLES,
    search_tokens,
)
from askalong.index.sections import index_pointers, section_scores
from askalong.types import Access

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
POINTER_ROLES = ("index", "glossary")  # the roles of the pages whose entries point
# A description's words weigh this much of the text's (``chunk/descriptions``): the
# description says where a chunk belongs, its text what it says.
CONTEXT_WEIGHT = 0.5
# Long queries keep only their rarest terms: the common ones barely move BM25 and each
# term costs a posting-list walk.
MAX_QUERY_TERMS = 64

Scored = Sequence[tuple[float, tantivy.DocAddress]]


def field_term(schema: tantivy.Schema, field: str, token: str) -> tantivy.Query:
    """A BM25-scored term of a text field."""
    return tantivy.Query.term_query(schema, field, token, "freq")


def exact_term(schema: tantivy.Schema, field: str, value: str) -> tantivy.Query:
    """An exact (raw) term of an id, permission or key field."""
    return tantivy.Query.term_query(schema, field, value, "basic")


def unscored(query: tantivy.Query) -> tantivy.Query:
    # A filter must not add to the BM25 sum; a zero constant score keeps it pure.
    return tantivy.Query.const_score_query(query, 0.0)


def text_query(schema: tantivy.Schema, terms: Sequence[str], grams: Sequence[str]) -> tantivy.Query:
    """SHOULD of every term in its field: the score is the sum of both fields' BM25, plus
    ``CONTEXT_WEIGHT`` times the description's (a chunk without one scores as before)."""
    should = tantivy.Occur.Should
    fielded = [(TEXT, t) for t in terms] + [(GRAMS, g) for g in grams]
    clauses = [(should, field_term(schema, f, t)) for f, t in fielded]
    described = [field_term(schema, CONTEXT, t) for t in dict.fromkeys([*terms, *grams])]
    if described:
        context = tantivy.Query.boolean_query([(should, q) for q in described])
        clauses.append((should, tantivy.Query.boost_query(context, CONTEXT_WEIGHT)))
    return tantivy.Query.boolean_query(clauses)


def filtered(
    schema: tantivy.Schema,
    scored: tantivy.Query,
    filters: Sequence[tantivy.Query],
    *,
    sections: bool,
) -> tantivy.Query:
    """``scored`` among the chunks the filters let through; with sections on, never a
    back-of-book index chunk (a list of terms answers nothing)."""
    must = tantivy.Occur.Must
    clauses = [(must, scored), *((must, f) for f in filters)]
    if sections:
        clauses.append((tantivy.Occur.MustNot, exact_term(schema, ROLE, "index")))
    return tantivy.Query.boolean_query(clauses)


def title_query(
    schema: tantivy.Schema, terms: Sequence[str], pointed: Mapping[str, float]
) -> tantivy.Query:
    """The terms in section titles, OR the sections the document's index pages point
    the terms at (``pointed``: title key -> weight; a constant score each)."""
    should = tantivy.Occur.Should
    clauses = [(should, field_term(schema, SECTION, t)) for t in terms]
    for key, weight in pointed.items():
        # This query's scores are scaled by SECTION_BOOST; a pointer's must not be.
        score = POINTER_BOOST * weight / max(SECTION_BOOST, 1e-6)
        pointer = tantivy.Query.const_score_query(exact_term(schema, TITLES, key), score)
        clauses.append((should, pointer))
    return tantivy.Query.boolean_query(clauses)


def pointer_pages_query(
    schema: tantivy.Schema, terms: Sequence[str], filters: Sequence[tantivy.Query]
) -> tantivy.Query:
    """The index or glossary chunks (that the filters let through) holding a term."""
    must, should = tantivy.Occur.Must, tantivy.Occur.Should
    roles = [(should, exact_term(schema, ROLE, r)) for r in POINTER_ROLES]
    words = [(should, field_term(schema, TEXT, t)) for t in terms]
    return tantivy.Query.boolean_query(
        [
            (must, unscored(tantivy.Query.boolean_query(roles))),
            (must, tantivy.Query.boolean_query(words)),
            *((must, f) for f in filters),
        ]
    )


def pointer_weights(
    searcher: tantivy.Searcher, pages: Scored, terms: Sequence[str]
) -> dict[str, float]:
    """Title key -> weight of the sections that the entries of the index ``pages``
    matching the question's ``terms`` point to."""
    texts = (bytes(searcher.doc(a).get_first(POINTED) or b"").decode("utf-8") for _, a in pages)
    return pointed_sections(texts, terms)


def pointed_sections(pages: Iterable[str], terms: Sequence[str]) -> dict[str, float]:
    """Title key -> summed weight of the sections that the entries of the index or
    glossary ``pages`` (their texts) matching the question's ``terms`` point to."""
    weights: dict[str, float] = {}
    for text in pages:
        for pointer in index_pointers(text, terms, search_tokens):
            for key in pointer.targets:
                weights[key] = weights.get(key, 0.0) + pointer.weight
    return weights


def document_filters(
    schema: tantivy.Schema, access: Access, documents: Collection[str] | None
) -> list[tantivy.Query]:
    """The permission filter (unless ``access`` sees everything) and the document filter."""
    filters = [] if access.everything else [permission_query(schema, access)]
    if documents is not None:
        ids = sorted(documents)
        filters.append(tantivy.Query.term_set_query(schema, DOCUMENT_ID, ids))
    return filters


def permission_query(schema: tantivy.Schema, access: Access) -> tantivy.Query:
    """One of the chunk's access tokens among the caller's (``types.Access``).

    A disjunction of term queries, not a term-set query: tantivy turns a term set into a
    bitset of every matching chunk before the search starts (all the caller may see, ~40 %
    of the index in benchmarks/permission_filter.py), while a disjunction is walked only
    where the scored query has hits. The same searches: keyword p50 +27 % -> ~0 % at 10k."""
    should = tantivy.Occur.Should
    return tantivy.Query.boolean_query(
        [(should, exact_term(schema, ACCESS, t)) for t in access.tokens]
    )


def query_terms(tokens: Sequence[str], searcher: tantivy.Searcher, field: str) -> list[str]:
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


# ----------------------------------------------------------------------------- results


def section_ranked(
    searcher: tantivy.Searcher, text: Scored, title: Scored, terms: set[str]
) -> list[tuple[float, tantivy.DocAddress]]:
    """The chunks either query found, scored by ``section_scores``, best first. Their
    sections are read from the ``section_number`` fast field; whether a section's titles
    are fully asked only where a title matched (elsewhere the title term is zero
    whatever it is), from one stored document of the section."""
    found: dict[tuple[int, int], list[Any]] = {}  # key -> [address, text score, title score]
    for score, address in text:
        found[(address.segment_ord, address.doc)] = [address, score, 0.0]
    for score, address in title:
        found.setdefault((address.segment_ord, address.doc), [address, 0.0, 0.0])[2] = score
    addresses = [address for address, _, _ in found.values()]
    sections = searcher.fast_field_values(SECTION_NUMBER, addresses)
    headings = [heading for _, _, heading in found.values()]
    scores = section_scores(
        [own for _, own, _ in found.values()],
        headings,
        sections,
        _whole_titles(searcher, addresses, sections, headings, terms),
        boost=SECTION_BOOST,
        full=FULL_TITLE_BOOST,
        share=SECTION_SHARE,
    )
    order = sorted(range(len(addresses)), key=lambda i: -scores[i])
    return [(scores[i], addresses[i]) for i in order]


def _whole_titles(
    searcher: tantivy.Searcher,
    addresses: Sequence[tantivy.DocAddress],
    sections: Sequence[object],
    headings: Sequence[float],
    terms: set[str],
) -> list[bool]:
    """Whether each hit whose title matched has a title fully asked: the section's
    titles are read once per section (its chunks share them: the section key holds them)."""
    asked: dict[object, bool] = {}
    out = []
    for address, section, heading in zip(addresses, sections, headings, strict=True):
        if heading > 0 and section not in asked:
            asked[section] = _fully_asked(searcher.doc(address), terms)
        out.append(heading > 0 and asked[section])
    return out


def _fully_asked(stored: tantivy.Document, terms: set[str]) -> bool:
    return asks_a_whole_title(bytes(stored.get_first(HEADINGS) or b"").decode("utf-8"), terms)


def asks_a_whole_title(headings: str, terms: set[str]) -> bool:
    """Whether every word of one of a chunk's titles (``headings``: each title's tokens,
    a line each) is in the question's ``terms``."""
    return any(line and set(line.split()) <= terms for line in headings.splitlines())
