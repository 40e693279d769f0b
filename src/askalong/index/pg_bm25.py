"""BM25 scored in SQL over the PostgreSQL keyword route's term rows (``pg_sql/keyword.sql``).

The formula and statistics are tantivy's, so the two routes rank alike: per field,

    score = Σ_t weight · idf(t) · tf · (k1 + 1) / (tf + k1 · (1 - b + b · dl / avgdl))
    idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)),  k1 = 1.2, b = 0.75

with N every chunk in the route, df the chunks holding the term in that field (over the
whole route, not the caller's share: the permission filter does not change a score; kept
in ``keyword_terms`` as chunks come and go), and avgdl the field's tokens over N. One
query sums the weighted terms of several fields, plus a constant per title key (what
index pages point at), keeps the chunks the filters let through and returns the best
``limit``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from askalong.index.pg_schema import Database

K1 = 1.2
B = 0.75
CHUNKS = 0  # keyword_totals' row of the chunk count
TEXT, GRAMS, CONTEXT, SECTION = 1, 2, 3, 4  # keyword_postings.field
FIELDS = (TEXT, GRAMS, CONTEXT, SECTION)


@dataclass(frozen=True)
class Scored:
    """One chunk a BM25 query found, with what the section-aware order reads."""

    chunk_id: str
    document_id: str
    score: float
    section_key: str
    headings: str
    pointed: str | None


@dataclass(frozen=True)
class Filters:
    """Which chunks a query may return: ``tokens`` (None: every one) meet the document's
    access tokens, ``documents`` (None: any) names them, and ``roles`` keeps (``only``)
    or drops (not ``only``) chunks of those roles."""

    tokens: Sequence[str] | None
    documents: Collection[str] | None
    roles: tuple[str, ...] = ()
    only: bool = False


_QUERY = """
WITH asked(field, term, weight) AS (
    SELECT * FROM unnest(%(fields)s::smallint[], %(terms)s::text[], %(weights)s::float8[])
),
totals AS (
    SELECT f.field, greatest(n.tokens, 1)::float8 AS n,
           greatest(f.tokens, 1)::float8 / greatest(n.tokens, 1) AS avgdl
    FROM keyword_totals f JOIN keyword_totals n ON n.field = {chunks}
),
weighted AS (
    SELECT a.field, a.term, t.avgdl,
           a.weight * ln(1 + (t.n - d.df + 0.5) / (d.df + 0.5)) * ({k1} + 1) AS idf
    FROM asked a
    JOIN totals t ON t.field = a.field
    JOIN keyword_terms d ON d.field = a.field AND d.term = a.term AND d.df > 0
),
parts AS (
    SELECT p.row, w.idf * p.tf / (p.tf + {k1} * (1 - {b} + {b} * p.length / w.avgdl)) AS score
    FROM weighted w
    JOIN keyword_postings p ON p.field = w.field AND p.term = w.term
    UNION ALL
    SELECT c.row, k.score
    FROM unnest(%(keys)s::text[], %(key_scores)s::float8[]) AS k(key, score)
    JOIN keyword_chunks c ON c.titles @> ARRAY[k.key]
),
scored AS (SELECT row, sum(score) AS score FROM parts GROUP BY row)
SELECT c.chunk_id, c.document_id, s.score, c.section_key, c.headings, c.pointed
FROM scored s JOIN keyword_chunks c ON c.row = s.row
WHERE {filters}
ORDER BY s.score DESC, c.row
LIMIT %(limit)s
"""


def bm25(
    connection: Database,
    terms: Sequence[tuple[int, str, float]],
    filters: Filters,
    limit: int,
    pointed: Mapping[str, float] | None = None,
) -> list[Scored]:
    """The ``limit`` best chunks for the weighted ``(field, term, weight)`` triples plus a
    constant score per title key in ``pointed``, best first, among those ``filters`` pass."""
    statement = bm25_statement(terms, filters, limit, pointed)
    return [] if statement is None else scored(connection.execute(*statement).fetchall())


Statement = tuple[sql.Composed, dict[str, object]]


def bm25_statement(
    terms: Sequence[tuple[int, str, float]],
    filters: Filters,
    limit: int,
    pointed: Mapping[str, float] | None = None,
) -> Statement | None:
    """``bm25``'s query and parameters (None: nothing to find), to send in a pipeline."""
    keys = dict(pointed or {})
    if limit <= 0 or not (terms or keys):
        return None
    query = sql.SQL(_QUERY).format(
        chunks=sql.Literal(CHUNKS), k1=sql.Literal(K1), b=sql.Literal(B), filters=_where(filters)
    )
    params: dict[str, object] = {
        "fields": [field for field, _, _ in terms],
        "terms": [term for _, term, _ in terms],
        "weights": [weight for _, _, weight in terms],
        "keys": list(keys),
        "key_scores": list(keys.values()),
        "limit": limit,
        "tokens": list(filters.tokens or ()),
        "documents": sorted(filters.documents or ()),
        "roles": list(filters.roles),
    }
    return query, params


def scored(rows: Sequence[tuple[Any, ...]]) -> list[Scored]:
    """The rows of a ``bm25_statement`` as ``Scored``."""
    return [Scored(str(r[0]), str(r[1]), float(r[2]), str(r[3]), str(r[4]), r[5]) for r in rows]


def _where(filters: Filters) -> sql.Composable:
    """The filters as SQL: every one is inside the ranking query, before its LIMIT."""
    clauses = [sql.SQL("TRUE")]
    if filters.tokens is not None:
        clauses.append(
            sql.SQL(
                "c.document_id IN (SELECT document_id FROM keyword_documents "
                "WHERE access && %(tokens)s::text[])"
            )
        )
    if filters.documents is not None:
        clauses.append(sql.SQL("c.document_id = ANY(%(documents)s::text[])"))
    if filters.roles and filters.only:
        clauses.append(sql.SQL("c.role = ANY(%(roles)s::text[])"))
    elif filters.roles:
        clauses.append(sql.SQL("(c.role IS NULL OR c.role <> ALL(%(roles)s::text[]))"))
    return sql.SQL(" AND ").join(clauses)


def document_frequencies(connection: Database, field: int, terms: Sequence[str]) -> dict[str, int]:
    """How many chunks hold each of ``terms`` in ``field`` (absent: none)."""
    rows = connection.execute(
        "SELECT term, df FROM keyword_terms WHERE field = %s AND term = ANY(%s) AND df > 0",
        (field, list(terms)),
    ).fetchall()
    return {str(term): int(count) for term, count in rows}
