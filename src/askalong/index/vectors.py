"""The vector route: cosine search over a memory-mapped float32 matrix, exact, or through a
nearest-neighbour graph over many rows (``vector_ann``).

Two files in the folder:

- the matrix (``vectors.f32``, after a compaction ``vectors-<n>.f32``): the rows,
  float32, one after another (append only);
- ``rows.sqlite3``: one row per vector (chunk id, content key, document id, alive flag),
  the dimension and the name of the current matrix file.

A row's content key (``content_key``: a hash of the embedder's name and the exact chunk
text embedded) says what the vector was computed from, so a vector is only ever used for
that text: a document whose chunks changed (another chunk size after a crash) has no
matching rows and is embedded again, reusing only the vectors of identical texts.

An append writes (and syncs) the vectors first and records their rows in one SQLite
transaction last, so the table's row count is the truth: a crash half-way through an
append leaves bytes past the recorded rows, which are ignored and overwritten by the
next append. Deleting marks rows dead; ``compact`` (run on its own once dead rows are
both many and a large share) writes the live rows to a new matrix file and switches the
row table and the file name in one transaction: a crash leaves the old pair or the new.

Vectors are stored normalised, so cosine similarity is a dot product.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from askalong.errors import StoreError
from askalong.index.vector_ann import ANN_MIN_ROWS, EXACT_ROWS, AnnGraph
from askalong.index.vector_claims import VectorClaims
from askalong.index.vector_files import (
    MATRIX_FILE,
    ROWS_FILE,
    ROWS_SCHEMA,
    VectorStats,
    next_matrix_name,
    stray_files,
    vector_stats,
    write_whole,
)
from askalong.index.vector_rows import DocumentVectors, FloatArray, VectorRows, normalised
from askalong.types import Hit

_ITEM = np.dtype(np.float32).itemsize
# Compact on its own when dead rows pass both: a share of the file and a count worth a rewrite.
COMPACT_SHARE = 0.3
COMPACT_MIN_DEAD = 1000


class VectorIndex:
    """Chunk vectors of one dimension, searched by cosine similarity."""

    def __init__(
        self,
        folder: Path,
        dimension: int,
        *,
        ann_min_rows: int = ANN_MIN_ROWS,
        exact_rows: int = EXACT_ROWS,
    ) -> None:
        """Searches past ``ann_min_rows`` rows go through the graph, but for a caller
        allowed ``exact_rows`` rows or fewer (``vector_ann``)."""
        if dimension <= 0:
            raise ValueError(f"dimension must be positive, not {dimension}")
        self._folder = folder
        self._source = str(folder)
        self._dimension = dimension
        self._lock = threading.Lock()
        self._claims = VectorClaims(folder)
        self._graph = AnnGraph(folder, dimension, min_rows=ann_min_rows, exact_rows=exact_rows)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            # Autocommit: transactions are explicit (BEGIN IMMEDIATE) in ``_transaction``.
            self._db = sqlite3.connect(
                folder / ROWS_FILE, check_same_thread=False, isolation_level=None, timeout=30
            )
            self._db.executescript(ROWS_SCHEMA)
            self._upgrade()
            self._check_dimension()
            self._version = self._data_version()
            self._rows = self._load()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the vector index: {exc}", source=self._source) from exc

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def folder(self) -> Path:
        return self._folder

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------------- opening

    def _upgrade(self) -> None:
        """Rows written before content keys get an empty key: they match no text, so their
        documents are embedded again rather than trusted."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(rows)")}
        if "content_key" not in columns:
            with self._transaction():
                self._db.execute("ALTER TABLE rows ADD COLUMN content_key TEXT NOT NULL DEFAULT ''")

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

    def _snapshot(self) -> VectorRows:
        # A writer holding the lock refreshes the rows itself: readers never wait for it.
        if not self._lock.acquire(blocking=False):
            return self._rows
        try:
            return self._current()
        finally:
            self._lock.release()

    def _current(self) -> VectorRows:
        """The rows, re-read when another process committed since we last looked
        (``data_version`` changes only on other connections' commits: a cheap check)."""
        version = self._data_version()
        if version != self._version:
            self._rows, self._version = self._load(), version
        return self._rows

    def _load(self) -> VectorRows:
        # One read transaction, so the rows and the matrix file's name belong together.
        inside = self._db.in_transaction
        if not inside:
            self._db.execute("BEGIN")
        try:
            records = self._db.execute(
                "SELECT row, chunk_id, content_key, document_id, alive FROM rows ORDER BY row"
            ).fetchall()
            name = self._matrix_name()
        finally:
            if not inside:
                self._db.execute("COMMIT")
        if any(record[0] != position for position, record in enumerate(records)):
            raise StoreError("the row table has gaps", source=self._source)
        return VectorRows.of(self._map(name, len(records)), name, [tuple(r[1:]) for r in records])

    def _matrix_name(self) -> str:
        found = self._db.execute("SELECT value FROM meta WHERE key = 'matrix'").fetchone()
        return str(found[0]) if found else MATRIX_FILE

    def _map(self, name: str, count: int) -> FloatArray:
        path = self._folder / name
        needed = count * self._dimension * _ITEM
        if count == 0:
            return np.empty((0, self._dimension), dtype=np.float32)
        if not path.is_file() or path.stat().st_size < needed:
            raise StoreError(f"{name} is shorter than its {count} rows", source=self._source)
        # Bytes past ``needed`` are a half-written append: the row table never saw them.
        return np.memmap(path, dtype=np.float32, mode="r", shape=(count, self._dimension))

    # ------------------------------------------------------------------------- writing

    def add(
        self,
        document_id: str,
        chunk_ids: Sequence[str],
        vectors: npt.ArrayLike,
        keys: Sequence[str] | None = None,
    ) -> None:
        """Append the chunk vectors of ``document_id``, replacing any it had before;
        ``keys`` are their content keys (none: rows that match no text, never reused)."""
        self.add_many([DocumentVectors.of(document_id, chunk_ids, vectors, keys, self._dimension)])

    def add_many(self, entries: Sequence[DocumentVectors]) -> None:
        """Append several documents' vectors in one write and one transaction (a bulk
        build syncs once, not once per document), each replacing what it had before."""
        if not entries:
            return
        for entry in entries:
            if entry.matrix.shape[1:] != (self._dimension,):
                raise ValueError(f"{entry.document_id}: vectors not of dimension {self._dimension}")
        with self._lock:
            try:
                with self._transaction():
                    # The write lock is held: no other process can append until we commit.
                    rows = self._current()
                    self._append(rows, np.concatenate([e.matrix for e in entries]))
                    self._insert_rows(rows.count, entries)
                self._rows = self._after_append(rows, entries)
            except (OSError, sqlite3.Error) as exc:
                raise StoreError(f"vector append failed: {exc}", source=self._source) from exc
        self._compact_if_worth_it()

    def _insert_rows(self, first: int, entries: Sequence[DocumentVectors]) -> None:
        records: list[tuple[int, str, str, str]] = []
        for entry in entries:
            self._mark_dead(entry.document_id)
            for chunk, key in zip(entry.chunk_ids, entry.keys, strict=True):
                records.append((first + len(records), chunk, key, entry.document_id))
        self._db.executemany(
            "INSERT INTO rows (row, chunk_id, content_key, document_id) VALUES (?, ?, ?, ?)",
            records,
        )

    def _after_append(self, rows: VectorRows, entries: Sequence[DocumentVectors]) -> VectorRows:
        """The snapshot after an append: one document's rows are added to the one in
        memory; many are read back once (adding them one by one copies every row each time)."""
        if len(entries) > 1:
            return self._load()
        (entry,) = entries
        mapped = self._map(rows.matrix_file, rows.count + len(entry.chunk_ids))
        return rows.appended(mapped, entry.document_id, entry.chunk_ids, entry.keys)

    def delete(self, document_id: str) -> None:
        """Mark every vector of ``document_id`` dead."""
        with self._lock:
            try:
                with self._transaction():
                    self._rows = self._current().without(document_id)
                    self._mark_dead(document_id)
            except sqlite3.Error as exc:
                raise StoreError(f"vector delete failed: {exc}", source=self._source) from exc
        self._compact_if_worth_it()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _append(self, rows: VectorRows, matrix: FloatArray) -> None:
        with open(self._folder / rows.matrix_file, "ab+") as file:
            # Drop any tail a crashed append left behind, then write after the last row.
            file.truncate(rows.count * self._dimension * _ITEM)
            file.write(matrix.tobytes())
            file.flush()
            os.fsync(file.fileno())

    def _mark_dead(self, document_id: str) -> None:
        self._db.execute(
            "UPDATE rows SET alive = 0 WHERE document_id = ? AND alive = 1", (document_id,)
        )

    def claim(self) -> AbstractContextManager[None]:
        """The short claim for checking and adding a document's vectors (``vector_claims``)."""
        return self._claims.claim()

    def claim_document(self, document_id: str) -> AbstractContextManager[bool]:
        """The claim on one document while it is embedded (``vector_claims``)."""
        return self._claims.claim_document(document_id)

    # ------------------------------------------------------------------------- compaction

    def _compact_if_worth_it(self) -> None:
        rows = self._snapshot()
        if rows.dead > COMPACT_MIN_DEAD and rows.dead > COMPACT_SHARE * rows.count:
            self.compact()

    def compact(self) -> int:
        """Rewrite the matrix and the row table with the live rows only; returns how many
        dead rows went. Crash-safe: the new matrix is written whole (temporary file,
        synced, renamed) before one transaction switches the rows and the file name."""
        with self._lock:
            try:
                with self._transaction():
                    rows = self._current()
                    self._remove_strays(rows.matrix_file)
                    if rows.dead == 0:
                        return 0
                    name = next_matrix_name(rows.matrix_file)
                    write_whole(self._folder / name, np.ascontiguousarray(rows.matrix[rows.live]))
                    self._rewrite_rows(rows, name)
                self._rows = self._load()
            except (OSError, sqlite3.Error) as exc:
                raise StoreError(f"vector compaction failed: {exc}", source=self._source) from exc
        # Searches in other processes still map the old file; unlinking keeps it theirs.
        with contextlib.suppress(OSError):
            (self._folder / rows.matrix_file).unlink()
        return rows.dead

    def _rewrite_rows(self, rows: VectorRows, name: str) -> None:
        live = [int(row) for row in rows.live]
        self._db.execute("DELETE FROM rows")
        self._db.executemany(
            "INSERT INTO rows (row, chunk_id, content_key, document_id) VALUES (?, ?, ?, ?)",
            [
                (new, rows.chunk_ids[old], rows.keys[old], rows.document_id(old))
                for new, old in enumerate(live)
            ],
        )
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES ('matrix', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (name,),
        )

    def _remove_strays(self, current: str) -> None:
        # Called under the write transaction: no other compaction is writing one now.
        for path in stray_files(self._folder, current):
            with contextlib.suppress(OSError):
                path.unlink()

    # ------------------------------------------------------------------------- reading

    def stats(self) -> VectorStats:
        return vector_stats(self._snapshot(), self._folder)

    def live_keys(self, document_id: str) -> dict[str, str]:
        """Chunk id -> content key of the document's live vectors, as committed now."""
        with self._lock:
            return self._current().live_keys(document_id)

    def vectors_for(self, keys: Collection[str]) -> dict[str, FloatArray]:
        """The stored vectors (live or dead, until compacted) computed from these keys."""
        with self._lock:
            rows = self._current()
            return {key: np.array(rows.matrix[row]) for key, row in rows.row_of_key(keys).items()}

    def snapshot(self) -> VectorRows:
        """Every row as committed now: what a scan over all vectors reads."""
        with self._lock:
            return self._current()

    def document_ids(self) -> set[str]:
        """The documents with at least one live vector."""
        return self._snapshot().document_ids()

    def live_documents(self) -> frozenset[str]:
        """The documents with at least one live vector: the same object until the rows
        change (what a caller may key its own memo on)."""
        return self._snapshot().live_documents

    def search(
        self,
        query_vector: npt.ArrayLike,
        *,
        allowed_document_ids: Collection[str] | None,
        limit: int = 150,
    ) -> Sequence[Hit]:
        """The ``limit`` live rows most similar to ``query_vector`` by cosine, among the
        rows of ``allowed_document_ids`` (None: every document). The restriction is applied
        before scoring, so hidden rows never take a place in the top-K."""
        query = normalised(np.asarray(query_vector, dtype=np.float32).reshape(-1))
        if query.shape != (self._dimension,):
            raise ValueError(f"query has dimension {query.shape[0]}, not {self._dimension}")
        rows = self._snapshot()
        allowed = rows.candidates(allowed_document_ids)
        found = self._graph.search(rows, query, allowed, limit) if np.any(query) else None
        if found is None:  # a small library or caller, or the graph not ready: scanned
            return rows.search_rows(query, allowed, limit)
        return rows.hits(*found)

    def update_graph(self) -> None:
        """Bring the nearest-neighbour graph up to the rows now (an ingest, after adding)."""
        self._graph.update(self._snapshot())

    @property
    def graph(self) -> AnnGraph:
        """The nearest-neighbour graph that answers searches over many rows."""
        return self._graph
