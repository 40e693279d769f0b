"""The vector route: exact cosine search over a memory-mapped float32 matrix.

Two files in the folder:

- ``vectors.f32``: the rows, float32, one after another (append only);
- ``rows.sqlite3``: one row per vector (chunk id, document id, alive flag) and the
  dimension.

An append writes (and syncs) the vectors first and records their rows in one SQLite
transaction last, so the table's row count is the truth: a crash half-way through an
append leaves bytes past the recorded rows, which are ignored and overwritten by the
next append. Deleting marks rows dead; their bytes stay until the folder is rebuilt.

Vectors are stored normalised, so cosine similarity is a dot product.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from askalong.errors import StoreError
from askalong.types import Hit

MATRIX_FILE = "vectors.f32"
ROWS_FILE = "rows.sqlite3"
_ITEM = np.dtype(np.float32).itemsize
# Below this share of allowed rows, gathering them beats scoring every row and masking.
_GATHER_SHARE = 0.3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
    row INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL,
    document_id TEXT NOT NULL,
    alive INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS rows_document ON rows (document_id);
"""

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Rows:
    """An immutable view of the index that a search reads while writers move on.

    Row ``i`` belongs to document ``names[codes[i]]``; ``live`` lists the live rows.
    """

    matrix: FloatArray
    chunk_ids: tuple[str, ...]
    names: tuple[str, ...]
    codes: npt.NDArray[np.int32]
    alive: npt.NDArray[np.bool_]
    live: IntArray

    @classmethod
    def of(
        cls,
        matrix: FloatArray,
        chunk_ids: tuple[str, ...],
        documents: Sequence[str],
        alive: npt.NDArray[np.bool_],
    ) -> _Rows:
        names = tuple(dict.fromkeys(documents))
        code = {name: i for i, name in enumerate(names)}
        codes = np.fromiter((code[name] for name in documents), np.int32, len(documents))
        return cls(matrix, chunk_ids, names, codes, alive, np.flatnonzero(alive))

    @property
    def count(self) -> int:
        return len(self.chunk_ids)

    def document_id(self, row: int) -> str:
        return self.names[self.codes[row]]

    @functools.cached_property
    def _live_documents(self) -> frozenset[str]:
        # A snapshot never changes, so each is listed once (~14 ms at 100k rows).
        return frozenset(self.names[code] for code in np.unique(self.codes[self.live]))

    def document_ids(self) -> set[str]:
        return set(self._live_documents)

    def rows_of(self, document_id: str) -> npt.NDArray[np.bool_]:
        if document_id not in self.names:
            return np.zeros(self.count, dtype=np.bool_)
        return self.codes == self.names.index(document_id)

    def candidates(self, allowed: Collection[str] | None) -> IntArray:
        """The live rows of the ``allowed`` documents (None: of every document)."""
        if allowed is None:
            return self.live
        wanted = set(allowed)
        flags = np.fromiter((name in wanted for name in self.names), np.bool_, len(self.names))
        return np.flatnonzero(flags[self.codes] & self.alive)

    def without(self, document_id: str) -> _Rows:
        alive = self.alive & ~self.rows_of(document_id)
        return replace(self, alive=alive, live=np.flatnonzero(alive))

    def appended(self, matrix: FloatArray, document_id: str, chunk_ids: Sequence[str]) -> _Rows:
        names = self.names if document_id in self.names else (*self.names, document_id)
        new = np.full(len(chunk_ids), names.index(document_id), dtype=np.int32)
        alive = np.concatenate([self.without(document_id).alive, np.ones(new.size, np.bool_)])
        return _Rows(
            matrix=matrix,
            chunk_ids=self.chunk_ids + tuple(chunk_ids),
            names=names,
            codes=np.concatenate([self.codes, new]),
            alive=alive,
            live=np.flatnonzero(alive),
        )


class VectorIndex:
    """Chunk vectors of one dimension, searched exactly by cosine similarity."""

    def __init__(self, folder: Path, dimension: int) -> None:
        if dimension <= 0:
            raise ValueError(f"dimension must be positive, not {dimension}")
        self._folder = folder
        self._source = str(folder)
        self._dimension = dimension
        self._lock = threading.Lock()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            # Autocommit: transactions are explicit (BEGIN IMMEDIATE) in ``_transaction``.
            self._db = sqlite3.connect(
                folder / ROWS_FILE, check_same_thread=False, isolation_level=None
            )
            self._db.executescript(_SCHEMA)
            self._check_dimension()
            self._version = self._data_version()
            self._rows = self._load()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the vector index: {exc}", source=self._source) from exc

    @property
    def dimension(self) -> int:
        return self._dimension

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------------- opening

    def _check_dimension(self) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('dimension', ?)",
                (str(self._dimension),),
            )
        (stored,) = self._db.execute("SELECT value FROM meta WHERE key = 'dimension'").fetchone()
        if int(stored) != self._dimension:
            raise StoreError(
                f"the index holds {stored}-dimensional vectors, not {self._dimension}: "
                "the embedding model changed, so re-index",
                source=self._source,
            )

    def _data_version(self) -> int:
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def _snapshot(self) -> _Rows:
        # A writer holding the lock refreshes the rows itself: readers never wait for it.
        if not self._lock.acquire(blocking=False):
            return self._rows
        try:
            return self._current()
        finally:
            self._lock.release()

    def _current(self) -> _Rows:
        """The rows, re-read when another process committed since we last looked
        (``data_version`` changes only on other connections' commits: a cheap check)."""
        version = self._data_version()
        if version != self._version:
            self._rows, self._version = self._load(), version
        return self._rows

    def _load(self) -> _Rows:
        records = self._db.execute(
            "SELECT row, chunk_id, document_id, alive FROM rows ORDER BY row"
        ).fetchall()
        if any(record[0] != position for position, record in enumerate(records)):
            raise StoreError("the row table has gaps", source=self._source)
        return _Rows.of(
            self._map(len(records)),
            tuple(record[1] for record in records),
            [record[2] for record in records],
            np.fromiter((record[3] for record in records), np.bool_, len(records)),
        )

    def _map(self, count: int) -> FloatArray:
        path = self._folder / MATRIX_FILE
        needed = count * self._dimension * _ITEM
        if count == 0:
            return np.empty((0, self._dimension), dtype=np.float32)
        if not path.is_file() or path.stat().st_size < needed:
            raise StoreError(f"{MATRIX_FILE} is shorter than its {count} rows", source=self._source)
        # Bytes past ``needed`` are a half-written append: the row table never saw them.
        return np.memmap(path, dtype=np.float32, mode="r", shape=(count, self._dimension))

    # ------------------------------------------------------------------------- writing

    def add(self, document_id: str, chunk_ids: Sequence[str], vectors: npt.ArrayLike) -> None:
        """Append the chunk vectors of ``document_id``, replacing any it had before."""
        matrix = _normalised(np.asarray(vectors, dtype=np.float32))
        if matrix.ndim != 2 or matrix.shape != (len(chunk_ids), self._dimension):
            raise ValueError(
                f"expected {len(chunk_ids)} vectors of dimension {self._dimension}, "
                f"got an array of shape {matrix.shape}"
            )
        with self._lock:
            try:
                with self._transaction():
                    # The write lock is held: no other process can append until we commit.
                    start = self._current().count
                    self._append(start, matrix)
                    self._mark_dead(document_id)
                    self._db.executemany(
                        "INSERT INTO rows (row, chunk_id, document_id) VALUES (?, ?, ?)",
                        [(start + i, chunk, document_id) for i, chunk in enumerate(chunk_ids)],
                    )
                matrix = self._map(start + len(chunk_ids))
                self._rows = self._rows.appended(matrix, document_id, chunk_ids)
            except (OSError, sqlite3.Error) as exc:
                raise StoreError(f"vector append failed: {exc}", source=self._source) from exc

    def delete(self, document_id: str) -> None:
        """Mark every vector of ``document_id`` dead."""
        with self._lock:
            try:
                with self._transaction():
                    self._rows = self._current().without(document_id)
                    self._mark_dead(document_id)
            except sqlite3.Error as exc:
                raise StoreError(f"vector delete failed: {exc}", source=self._source) from exc

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _append(self, start: int, matrix: FloatArray) -> None:
        with open(self._folder / MATRIX_FILE, "ab+") as file:
            # Drop any tail a crashed append left behind, then write after the last row.
            file.truncate(start * self._dimension * _ITEM)
            file.write(matrix.tobytes())
            file.flush()
            os.fsync(file.fileno())

    def _mark_dead(self, document_id: str) -> None:
        self._db.execute(
            "UPDATE rows SET alive = 0 WHERE document_id = ? AND alive = 1", (document_id,)
        )

    # ------------------------------------------------------------------------- reading

    def document_ids(self) -> set[str]:
        """The documents with at least one live vector."""
        return self._snapshot().document_ids()

    def search(
        self,
        query_vector: npt.ArrayLike,
        *,
        allowed_document_ids: Collection[str] | None,
        limit: int = 150,
    ) -> list[Hit]:
        """The ``limit`` live rows most similar to ``query_vector`` by cosine, among the
        rows of ``allowed_document_ids`` (None: every document). The restriction is applied
        before scoring, so hidden rows never take a place in the top-K."""
        query = _normalised(np.asarray(query_vector, dtype=np.float32).reshape(-1))
        if query.shape != (self._dimension,):
            raise ValueError(f"query has dimension {query.shape[0]}, not {self._dimension}")
        rows = self._snapshot()
        candidates = rows.candidates(allowed_document_ids)
        if limit <= 0 or candidates.size == 0 or not np.any(query):
            return []
        scores = _scores(rows.matrix, candidates, query)
        order = _top_k(scores, limit)
        return [
            _hit(rows, int(candidates[i]), float(scores[i]), rank)
            for rank, i in enumerate(order, start=1)
        ]


def _normalised(vectors: FloatArray) -> FloatArray:
    """Rows scaled to unit length (all-zero rows stay zero)."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


def _scores(matrix: FloatArray, rows: IntArray, query: FloatArray) -> FloatArray:
    """Cosine of ``query`` with each of ``rows``: a dot product of unit vectors."""
    # einsum's vectorised loop beats BLAS sgemv here (no thread start-up, no contention
    # on a shared machine): ~2x faster on 100k x 384.
    if rows.size >= _GATHER_SHARE * matrix.shape[0]:
        return np.einsum("ij,j->i", matrix, query)[rows]
    return np.einsum("ij,j->i", matrix[rows], query)


def _top_k(scores: FloatArray, limit: int) -> IntArray:
    """Positions of the ``limit`` highest scores, best first (ties: lower position)."""
    if scores.size > limit:
        part = np.argpartition(-scores, limit - 1)[:limit]
    else:
        part = np.arange(scores.size)
    order = np.lexsort((part, -scores[part]))
    return part[order].astype(np.int64)


def _hit(rows: _Rows, row: int, score: float, rank: int) -> Hit:
    return Hit(
        chunk_id=rows.chunk_ids[row],
        document_id=rows.document_id(row),
        score=score,
        mode="vector",
        vector_score=score,
        vector_rank=rank,
    )
