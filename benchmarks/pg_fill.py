"""Filling the PostgreSQL search routes in bulk for a benchmark: the rows the routes'
own writers make (``pg_keyword.indexed_chunk``/``postings``, the vector route's table),
streamed by COPY with the indexes dropped and built once at the end, as a bulk load of
any PostgreSQL table is done. Adding 100k chunks through ``add_many``/``add`` walks the
postings' B-tree and the HNSW graph row by row (~100 chunks/s on a 2-core machine: half
an hour); this takes minutes. The statistics (df per term, totals) are counted in SQL
from the postings, as the writers would have kept them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from psycopg import sql

from askalong.index.keyword_schema import indexed_chunk
from askalong.index.pg_keyword import postings
from askalong.index.pg_schema import Database, Pool
from askalong.index.pg_vector import PostgresVectorRoute
from askalong.index.vector_rows import DocumentVectors
from askalong.types import StoredDocument

MEMORY = "SET maintenance_work_mem = '1GB'"  # index builds in memory, not in sorted runs


def fill_keyword(pool: Pool, stored: Sequence[StoredDocument]) -> float:
    """Every document's keyword rows; seconds taken."""
    started = time.perf_counter()
    with pool.connection() as connection, connection.transaction():
        connection.execute(MEMORY)
        connection.execute("ALTER TABLE keyword_postings DROP CONSTRAINT keyword_postings_pkey")
        connection.execute("DROP INDEX keyword_postings_row")
        rows = _copy_keyword(connection, stored)
        connection.execute(
            "ALTER TABLE keyword_postings ADD PRIMARY KEY (field, term, row) INCLUDE (tf, length)"
        )
        connection.execute("CREATE INDEX keyword_postings_row ON keyword_postings (row)")
        _count_statistics(connection, rows)
    return time.perf_counter() - started


def _copy_keyword(connection: Database, stored: Sequence[StoredDocument]) -> int:
    """The postings' rows streamed (one COPY at a time a connection), then the documents'
    and chunks' rows gathered meanwhile; how many chunks."""
    documents: list[tuple[object, ...]] = []
    chunks: list[tuple[object, ...]] = []
    with connection.cursor().copy(
        "COPY keyword_postings (field, term, row, tf, length) FROM STDIN"
    ) as terms:
        for item in stored:
            indexed = [indexed_chunk(item.document, chunk) for chunk in item.chunks]
            documents.append((item.document.id, list(indexed[0].access)))
            for chunk, entry in zip(item.chunks, indexed, strict=True):
                row = len(chunks) + 1
                pointed = chunk.text if entry.role is not None else None
                fields = (entry.role, entry.section_key, entry.headings, entry.titles, pointed)
                chunks.append((row, chunk.id, item.document.id, *fields))
                for field, term, tf, length in postings(entry):
                    terms.write_row((field, term, row, tf, length))
    _copy_rows(connection, "keyword_documents (document_id, access)", documents)
    columns = "keyword_chunks (row, chunk_id, document_id, role, section_key, headings, titles,"
    _copy_rows(connection, columns + " pointed)", chunks)
    return len(chunks)


def _copy_rows(connection: Database, table: str, rows: Sequence[tuple[object, ...]]) -> None:
    with connection.cursor().copy(f"COPY {table} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _count_statistics(connection: Database, chunks: int) -> None:
    connection.execute(
        "INSERT INTO keyword_terms (field, term, df) SELECT field, term, count(*)"
        " FROM keyword_postings GROUP BY field, term"
    )
    connection.execute("UPDATE keyword_totals SET tokens = %s WHERE field = 0", (chunks,))
    connection.execute(
        "UPDATE keyword_totals t SET tokens = s.tokens FROM (SELECT field, sum(tf) AS tokens"
        " FROM keyword_postings GROUP BY field) s WHERE t.field = s.field"
    )
    connection.execute("SELECT setval('keyword_chunks_row_seq', %s)", (max(chunks, 1),))


def fill_vectors(
    pool: Pool, route: PostgresVectorRoute, entries: Iterable[DocumentVectors]
) -> tuple[float, float]:
    """Every document's vectors, then the HNSW index; seconds for each."""
    table, documents = sql.Identifier(route.name), sql.Identifier(f"{route.name}_documents")
    hnsw = sql.Identifier(f"{route.name}_hnsw")
    started = time.perf_counter()
    with pool.connection() as connection:
        connection.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(hnsw))
        statement = sql.SQL("COPY {} (chunk_id, document_id, embedding) FROM STDIN")
        with connection.transaction(), connection.cursor().copy(statement.format(table)) as copy:
            for entry in entries:
                for chunk_id, row in zip(entry.chunk_ids, entry.matrix, strict=True):
                    literal = "[" + ",".join(map(repr, row.tolist())) + "]"
                    copy.write_row((chunk_id, entry.document_id, literal))
        connection.execute(
            sql.SQL(
                "INSERT INTO {} (document_id, vectors) SELECT document_id, count(*) FROM {}"
                " GROUP BY document_id"
            ).format(documents, table)
        )
        copied = time.perf_counter() - started
        connection.execute(MEMORY)
        if route.version is not None:
            connection.execute(
                sql.SQL("CREATE INDEX {} ON {} USING hnsw (embedding vector_cosine_ops)").format(
                    hnsw, table
                )
            )
    return copied, time.perf_counter() - started - copied
