"""Every vector space's tables in a PostgreSQL database at once: what keeps vectors in
step with the store without loading an embedder (``PostgresRoutes``: a document written
afresh, a removal, ``sync``). A space is the table pair ``pg_vector`` made for an
embedder (``vectors_<slug>`` or ``plain_vectors_<slug>``, and its ``_documents`` table),
found in the catalog.
"""

from __future__ import annotations

from collections.abc import Collection

from psycopg import sql

from askalong.index.pg_schema import Database, Pool, connected

_SPACES = (
    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    " AND tablename ~ '^(plain_)?vectors_[0-9a-f]{16}_documents$' ORDER BY tablename"
)


def spaces(connection: Database) -> list[tuple[sql.Identifier, sql.Identifier]]:
    """(rows table, documents table) of every vector space in the database."""
    names = [str(name) for (name,) in connection.execute(_SPACES)]
    tables = [(name.removesuffix("_documents"), name) for name in names]
    return [(sql.Identifier(rows), sql.Identifier(documents)) for rows, documents in tables]


def forget(pool: Pool, document_ids: Collection[str]) -> None:
    """Set the documents' vectors aside in every space: no longer searchable (their
    documents rows go), still reusable by content key until the document's next add."""
    if not document_ids:
        return
    with connected(pool) as connection, connection.transaction():
        for _, documents in spaces(connection):
            connection.execute(
                sql.SQL("DELETE FROM {} WHERE document_id = ANY(%s)").format(documents),
                (sorted(document_ids),),
            )


def drop(pool: Pool, document_ids: Collection[str]) -> None:
    """Remove the documents' vectors from every space, set aside ones included."""
    if not document_ids:
        return
    with connected(pool) as connection, connection.transaction():
        for rows, documents in spaces(connection):
            for table in (documents, rows):
                connection.execute(
                    sql.SQL("DELETE FROM {} WHERE document_id = ANY(%s)").format(table),
                    (sorted(document_ids),),
                )


def held(pool: Pool) -> set[str]:
    """The documents with any row (searchable or set aside) in any space."""
    with connected(pool) as connection:
        found: set[str] = set()
        for rows, _ in spaces(connection):
            query = sql.SQL("SELECT DISTINCT document_id FROM {}").format(rows)
            found |= {str(document_id) for (document_id,) in connection.execute(query)}
        return found
