"""The vector route on PostgreSQL: pgvector HNSW (cosine), or an exact scan without it.

``PostgresVectorRoute`` is the server ``VectorRoute`` (``index/base.py``). One table per
vector space (``pg_sql/vectors.sql``), so vectors of different embedders never mix. Like
the local route it keeps no copy of the permission fields: ``scope`` asks the keyword
route which documents the caller may see, so a visibility change applies to both routes
at once, and ``search`` restricts the ANN scan to those documents inside its query.

A filter inside an HNSW scan thins what the scan returns: pgvector walks ``ef_search``
candidates and drops those the filter refuses, so a caller who may see a third of the
rows gets about a third of ``ef_search`` back. pgvector from 0.8 keeps scanning until
the limit is met (``hnsw.iterative_scan``); before it (0.6 in the ``pgserver`` wheel) the
route widens ``ef_search`` by the share the caller may see (``ef_search``), and where the
width would pass pgvector's maximum it scores the visible rows exactly instead (a small
share is a small scan). ``tests/contract/test_pg_vector_recall.py`` holds recall@10 at
0.98 of exact for three tenants.

Where the ``vector`` extension is absent the vectors are float32 bytes
(``pg_sql/vectors_plain.sql``), scored exactly in numpy over the visible rows.

Each row keeps the content key of the text it was computed from, so the route is also
the ``KeyedVectors`` that embedding writes to (``index/embedding.py``): an identical
text is never embedded twice, by any worker on any machine. A worker holds a document
while it embeds it by a PostgreSQL advisory lock, so two workers never embed one
document at once; vectors set aside (``pg_vector_spaces.forget``) stay reusable.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager, nullcontext

import numpy as np
import numpy.typing as npt
from psycopg import sql

from askalong.index.base import KeywordRoute, VectorScope
from askalong.index.pg_schema import Database, Pool, apply_schema, connected
from askalong.index.vector_rows import FloatArray, normalised
from askalong.types import Access, Hit

# pgvector's ceiling for hnsw.ef_search; past it a filtered search scores exactly.
MAX_EF_SEARCH = 1000
MIN_EF_SEARCH = 40  # pgvector's default
# How many times ``limit`` the scan asks for beyond the visible share. Tuned on random
# unit vectors of dimension 384, the hardest case for a graph index (real embeddings
# cluster): 4,000 rows, 40 % visible, limit 10, recall@10 against exact was 0.54, 0.81,
# 0.96 and 1.0 at ef_search 40, 100, 200 and 400 (so 16 x 10 / 0.4 = 400).
OVERSAMPLE = 16.0


class PostgresVectorRoute:
    """Chunk vectors of one space in PostgreSQL, searched by cosine among what a caller
    may see (the documents the keyword route lets through)."""

    def __init__(
        self,
        pool: Pool,
        keyword: KeywordRoute,
        space: str,
        dimension: int,
        *,
        pgvector: bool | None = None,
    ) -> None:
        """``pgvector``: None uses the extension when the server has it; False never."""
        self._pool = pool
        self._keyword = keyword
        self.dimension = dimension
        with connected(pool) as connection:
            self.version = _pgvector_version(connection) if pgvector is not False else None
            name = f"{'vectors' if self.version else 'plain_vectors'}_{_slug(space)}"
            self.name = name
            self._table = sql.Identifier(name)
            self._documents = sql.Identifier(f"{name}_documents")
            apply_schema(
                connection,
                "vectors" if self.version else "vectors_plain",
                dimension=dimension,
                table=name,
                documents=f"{name}_documents",
                keys=f"{name}_keys",
                hnsw=f"{name}_hnsw",
            )

    @property
    def pool(self) -> Pool:
        return self._pool

    def scope(self, access: Access, documents: Collection[str] | None = None) -> VectorScope:
        visible = self._keyword.document_ids(access, among=documents)
        ready = self._with_vectors(visible)
        return VectorScope(frozenset(ready), frozenset(visible - ready))

    def search(self, vector: npt.ArrayLike, scope: VectorScope, *, limit: int = 150) -> list[Hit]:
        if limit <= 0 or not scope.ready:
            return []
        query = normalised(np.asarray(vector, dtype=np.float32).reshape(-1))
        ready = sorted(scope.ready)
        with connected(self._pool) as connection, connection.transaction():
            if self.version is None:
                found = self._exact(connection, query, ready, limit)
            else:
                found = self._nearest(connection, query, ready, limit)
        return [_hit(rank, *row) for rank, row in enumerate(found, start=1)]

    def document_ids(self) -> set[str]:
        with connected(self._pool) as connection:
            rows = connection.execute(sql.SQL("SELECT document_id FROM {}").format(self._documents))
            return {str(document_id) for (document_id,) in rows}

    def add(
        self,
        document_id: str,
        chunk_ids: Sequence[str],
        vectors: npt.ArrayLike,
        keys: Sequence[str] | None = None,
    ) -> None:
        """Store the document's vectors (with their texts' content ``keys``, if known),
        replacing any it had, set aside ones included."""
        matrix = normalised(np.asarray(vectors, dtype=np.float32).reshape(len(chunk_ids), -1))
        if matrix.shape[1] != self.dimension:
            raise ValueError(f"vectors of dimension {matrix.shape[1]}, not {self.dimension}")
        rows = list(zip(chunk_ids, keys or [""] * len(chunk_ids), strict=True))
        with connected(self._pool) as connection, connection.transaction():
            self._remove(connection, document_id)
            self._copy(connection, document_id, rows, matrix)
            connection.execute(
                sql.SQL("INSERT INTO {} (document_id, vectors) VALUES (%s, %s)").format(
                    self._documents
                ),
                (document_id, len(chunk_ids)),
            )

    def delete(self, document_id: str) -> None:
        with connected(self._pool) as connection, connection.transaction():
            self._remove(connection, document_id)

    # ------------------------------------------------------------------------- keyed

    def live_keys(self, document_id: str) -> dict[str, str]:
        """Chunk id -> content key of the document's searchable vectors."""
        statement = sql.SQL(
            "SELECT v.chunk_id, v.content_key FROM {} v JOIN {} d USING (document_id)"
            " WHERE v.document_id = %s"
        ).format(self._table, self._documents)
        with connected(self._pool) as connection:
            return {str(c): str(k) for c, k in connection.execute(statement, (document_id,))}

    def vectors_for(self, keys: Collection[str]) -> dict[str, FloatArray]:
        """A stored vector (searchable or set aside) for each of ``keys`` that has one."""
        wanted = sorted(set(keys) - {""})
        if not wanted:
            return {}
        value = "embedding::real[]" if self.version else "embedding"
        statement = sql.SQL(
            "SELECT DISTINCT ON (content_key) content_key, " + value + " FROM {}"
            " WHERE content_key = ANY(%s)"
        ).format(self._table)
        with connected(self._pool) as connection:
            rows = connection.execute(statement, (wanted,)).fetchall()
        return {str(key): _array(found) for key, found in rows}

    @contextmanager
    def claim_document(self, document_id: str) -> Iterator[bool]:
        """The document held alone (a session advisory lock) while it is embedded; False
        when another process or thread holds it: it is skipped, nobody waits."""
        lock = _lock_key(f"{self.name}:{document_id}")
        with connected(self._pool) as connection:
            row = connection.execute("SELECT pg_try_advisory_lock(%s)", (lock,)).fetchone()
            ours = bool(row and row[0])
            try:
                yield ours
            finally:
                if ours:
                    connection.execute("SELECT pg_advisory_unlock(%s)", (lock,))

    def claim(self) -> nullcontext[None]:
        """Nothing to hold: ``add`` replaces a document's vectors in one transaction."""
        return nullcontext()

    def update_graph(self) -> None:
        """Nothing to do: PostgreSQL keeps the HNSW index up to date with every insert."""

    # ------------------------------------------------------------------------- inside

    def _with_vectors(self, documents: Collection[str]) -> set[str]:
        if not documents:
            return set()
        query = sql.SQL("SELECT document_id FROM {} WHERE document_id = ANY(%s)")
        with connected(self._pool) as connection:
            rows = connection.execute(query.format(self._documents), (sorted(documents),))
            return {str(document_id) for (document_id,) in rows}

    def _remove(self, connection: Database, document_id: str) -> None:
        # The documents row first: a second writer of the same document waits on it.
        for table in (self._documents, self._table):
            connection.execute(
                sql.SQL("DELETE FROM {} WHERE document_id = %s").format(table), (document_id,)
            )

    def _copy(
        self,
        connection: Database,
        document_id: str,
        rows: Sequence[tuple[str, str]],
        matrix: npt.NDArray[np.float32],
    ) -> None:
        """``rows``: (chunk id, content key) of each row of ``matrix``."""
        statement = sql.SQL("COPY {} (chunk_id, document_id, embedding, content_key) FROM STDIN")
        with connection.cursor().copy(statement.format(self._table)) as copy:
            for (chunk_id, key), row in zip(rows, matrix, strict=True):
                value = _literal(row) if self.version else row.tobytes()
                copy.write_row((chunk_id, document_id, value, key))

    def _nearest(
        self, connection: Database, query: npt.NDArray[np.float32], ready: list[str], limit: int
    ) -> list[tuple[str, str, float]]:
        """The ANN scan with the document filter inside it (see the module docstring)."""
        visible, total = self.counts(connection, ready)
        self.set_width(connection, limit, visible, total)
        statement = sql.SQL(
            "SELECT chunk_id, document_id, 1 - (embedding <=> %(q)s::vector) FROM {} "
            "WHERE document_id = ANY(%(ready)s) ORDER BY embedding <=> %(q)s::vector "
            "LIMIT %(limit)s"
        ).format(self._table)
        params = {"q": _literal(query), "ready": ready, "limit": limit}
        return [(str(c), str(d), float(s)) for c, d, s in connection.execute(statement, params)]

    def set_width(self, connection: Database, limit: int, visible: int, total: int) -> None:
        """The HNSW scan's width, for this transaction, for ``limit`` hits when a filter
        lets ``visible`` of ``total`` rows through (see the module docstring)."""
        width = ef_search(limit, visible, total, iterative=_at_least(self.version, (0, 8)))
        if width is None:  # too thin a share for the graph: every visible row, exactly
            connection.execute("SET LOCAL enable_indexscan = off")
        else:
            connection.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(width))
            if _at_least(self.version, (0, 8)):
                connection.execute("SET LOCAL hnsw.iterative_scan = strict_order")

    def counts(self, connection: Database, ready: list[str]) -> tuple[int, int]:
        """How many vectors ``ready`` hold, and how many the table holds."""
        statement = sql.SQL(
            "SELECT coalesce(sum(vectors) FILTER (WHERE document_id = ANY(%s)), 0),"
            " coalesce(sum(vectors), 0) FROM {}"
        ).format(self._documents)
        row = connection.execute(statement, (ready,)).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    def _exact(
        self, connection: Database, query: npt.NDArray[np.float32], ready: list[str], limit: int
    ) -> list[tuple[str, str, float]]:
        """Every visible vector scored in numpy (no pgvector)."""
        statement = sql.SQL(
            "SELECT chunk_id, document_id, embedding FROM {} WHERE document_id = ANY(%s)"
        ).format(self._table)
        rows = connection.execute(statement, (ready,)).fetchall()
        if not rows:
            return []
        matrix = np.frombuffer(b"".join(bytes(r[2]) for r in rows), dtype=np.float32)
        scores = matrix.reshape(len(rows), -1) @ query
        best = np.argsort(-scores, kind="stable")[:limit]
        return [(str(rows[i][0]), str(rows[i][1]), float(scores[i])) for i in best]


def ef_search(limit: int, visible: int, total: int, *, iterative: bool) -> int | None:
    """The HNSW candidate width for ``limit`` hits when ``visible`` of ``total`` rows
    pass the filter; None when no width within pgvector's maximum is enough (score the
    visible rows exactly). With iterative scans the width need not cover the filter."""
    if visible <= 0:
        return None
    filtered = visible < total and not iterative
    wanted = limit * OVERSAMPLE * total / visible if filtered else limit
    width = max(MIN_EF_SEARCH, math.ceil(wanted))
    return width if width <= MAX_EF_SEARCH else None


def _pgvector_version(connection: Database) -> tuple[int, ...] | None:
    """pgvector's version, the extension created if the server has it; None without."""
    available = connection.execute(
        "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
    ).fetchone()
    if available is None:
        return None
    with connection.transaction():
        connection.execute("CREATE EXTENSION IF NOT EXISTS vector")
    row = connection.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    found = row.fetchone()
    return tuple(int(part) for part in str(found[0]).split(".")) if found else None


def _at_least(version: tuple[int, ...] | None, wanted: tuple[int, ...]) -> bool:
    return version is not None and version >= wanted


def _slug(space: str) -> str:
    """A table-name-safe, fixed-length name for a vector space."""
    return hashlib.sha256(space.encode("utf-8")).hexdigest()[:16]


def _lock_key(name: str) -> int:
    """A signed 64-bit advisory lock key for ``name``."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big", signed=True)


def _array(stored: object) -> FloatArray:
    """A stored vector (pgvector's ``real[]`` or the plain route's bytes) as float32."""
    if isinstance(stored, bytes | memoryview):
        return np.frombuffer(bytes(stored), dtype=np.float32).copy()
    return np.asarray(stored, dtype=np.float32)


def _literal(row: npt.NDArray[np.float32]) -> str:
    """A vector as pgvector's text form."""
    return "[" + ",".join(repr(float(value)) for value in row) + "]"


def _hit(rank: int, chunk_id: str, document_id: str, score: float) -> Hit:
    return Hit(
        chunk_id=chunk_id,
        document_id=document_id,
        score=score,
        mode="vector",
        vector_score=score,
        vector_rank=rank,
    )
