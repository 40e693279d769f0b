"""``Neighbours`` (``index/neighbours.py``) in PostgreSQL: the contradiction scan of
server mode, over the vector route's tables (``pg_vector``).

With pgvector, one query: each of the document's chunks takes its nearest chunks of
other documents by ``<=>`` in a lateral join, the HNSW width set as a filtered search
sets it (``PostgresVectorRoute.set_width``: the filter drops the document's own rows). Without
pgvector the vectors are float32 bytes, scored exactly in numpy as the embedded scan
scores them. Only searchable vectors count, on both sides: those of a document set aside
(written afresh, not embedded again yet) are neither scanned nor met.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import LiteralString

import numpy as np
from psycopg import sql

from askalong.index.neighbours import Nearby, Neighbour, nearest
from askalong.index.pg_schema import Database, connected
from askalong.index.pg_vector import PostgresVectorRoute

_NEAREST = """
SELECT o.chunk_id, n.chunk_id, n.cosine FROM {table} o
CROSS JOIN LATERAL (
    SELECT v.chunk_id, 1 - (v.embedding <=> o.embedding) AS cosine FROM {table} v
    WHERE v.document_id <> %(document)s
      AND v.document_id IN (SELECT document_id FROM {documents})
    ORDER BY v.embedding <=> o.embedding LIMIT %(limit)s
) n
WHERE o.document_id = %(document)s AND o.chunk_id = ANY(%(own)s)
  AND n.cosine >= %(min_cosine)s
ORDER BY o.chunk_id, n.cosine DESC
"""


class PostgresNeighbours:
    """The nearest chunks of other documents, among the vectors of ``route``'s space."""

    def __init__(self, route: PostgresVectorRoute) -> None:
        self.route = route
        self._table = sql.Identifier(route.name)
        self._documents = sql.Identifier(f"{route.name}_documents")

    def near(
        self, document_id: str, chunk_ids: Collection[str], *, min_cosine: float, limit: int
    ) -> Nearby:
        with connected(self.route.pool) as connection, connection.transaction():
            own = self._own(connection, document_id, chunk_ids)
            if not own:
                return Nearby(frozenset(), ())
            if self.route.version is None:
                found = self._exact(connection, document_id, own, min_cosine, limit)
            else:
                found = self._nearest(connection, document_id, own, min_cosine, limit)
        return Nearby(frozenset(own), tuple(found))

    def _own(self, connection: Database, document_id: str, chunk_ids: Collection[str]) -> list[str]:
        """The chunks of ``chunk_ids`` with a searchable vector."""
        statement = sql.SQL(
            "SELECT v.chunk_id FROM {} v JOIN {} d USING (document_id)"
            " WHERE v.document_id = %s AND v.chunk_id = ANY(%s) ORDER BY v.chunk_id"
        ).format(self._table, self._documents)
        rows = connection.execute(statement, (document_id, sorted(chunk_ids)))
        return [str(chunk_id) for (chunk_id,) in rows]

    def _nearest(
        self, connection: Database, document_id: str, own: list[str], min_cosine: float, limit: int
    ) -> list[Neighbour]:
        mine, total = self.route.counts(connection, [document_id])
        self.route.set_width(connection, limit, total - mine, total)  # own rows filtered out
        statement = sql.SQL(_NEAREST).format(table=self._table, documents=self._documents)
        params = {"document": document_id, "own": own, "limit": limit, "min_cosine": min_cosine}
        rows = connection.execute(statement, params)
        return [Neighbour(str(mine), str(other), float(cosine)) for mine, other, cosine in rows]

    def _exact(
        self, connection: Database, document_id: str, own: list[str], min_cosine: float, limit: int
    ) -> list[Neighbour]:
        """Every searchable vector of the other documents scored in numpy (no pgvector)."""
        mine = self._vectors(
            connection, "v.document_id = %s AND v.chunk_id = ANY(%s)", document_id, own
        )
        others = self._vectors(connection, "v.document_id <> %s", document_id)
        if not others[0]:
            return []
        return list(nearest(*mine, *others, min_cosine=min_cosine, limit=limit))

    def _vectors(
        self, connection: Database, where: LiteralString, *params: object
    ) -> tuple[Sequence[str], np.ndarray]:
        """(chunk ids, their unit vectors as rows) of the searchable rows ``where`` picks."""
        statement = sql.SQL(
            "SELECT v.chunk_id, v.embedding FROM {} v JOIN {} d USING (document_id) WHERE "
            + where
            + " ORDER BY v.chunk_id"
        ).format(self._table, self._documents)
        rows = connection.execute(statement, params).fetchall()
        data = b"".join(bytes(row[1]) for row in rows)
        matrix = np.frombuffer(data, dtype=np.float32).reshape(len(rows), self.route.dimension)
        return [str(row[0]) for row in rows], matrix
