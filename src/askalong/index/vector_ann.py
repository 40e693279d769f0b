"""An approximate nearest-neighbour graph (HNSW, usearch) over a ``VectorIndex``'s rows, for
libraries too big to scan: below ``ANN_MIN_ROWS`` rows (or without usearch) the exact scan
of ``vector_rows`` answers, as before.

A graph key is a row number of the matrix file. Rows are only ever appended to a matrix
file and never change, so a graph of rows ``[0, n)`` stays right while rows are added: it
is extended with the new ones (a thread of its own, in slices), and a search scans the rows
past it exactly meanwhile. Dead rows stay in the graph and are dropped like hidden ones;
a compaction writes a new matrix file, and so starts a new graph.

The graph is saved beside the matrix (``ann-<matrix>.usearch``), written whole to a
temporary file and renamed, so a crash leaves the old file or the new; a missing or
unreadable file, or one holding more rows than the matrix, is built again from the stored
vectors, in the background, while searches scan exactly.

Filtering inside the search: the graph returns candidates, oversampled by the share of rows
the caller may see; the ones the caller may not see are dropped before anything is scored,
the kept ones are scored exactly (float32 rows, so scores equal the exact scan's), and if
fewer than ``limit`` survive, the search widens four-fold until it has them or falls back
to the exact scan. A caller who may see few rows (``EXACT_ROWS``), or a middle share of a
large library (``SCAN_SHARE_DIVISOR``), is scanned exactly.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from askalong.index.vector_rows import FloatArray, IntArray, VectorRows, scores_of, top_k

# Below this many rows the exact scan costs a few ms: no graph is built.
ANN_MIN_ROWS = 30_000
# A caller allowed this few rows gets them scanned exactly (~5 ms at 384 dimensions).
EXACT_ROWS = 20_000
# A caller allowed rows x share at most ``EXACT_ROWS`` / this is scanned too: at 300k rows a
# tenth allowed (30k rows, 3,000) scans in 13.6 CPU ms where the graph takes 15.5 (it asks
# for 3,000 candidates); at 1M a tenth (100k rows, 10,000) the graph wins (~20 against ~42,
# the 12-04 run less its ~25 ms row listing, now remembered; benchmarks/vector_ann.py).
SCAN_SHARE_DIVISOR = 6
# Candidates asked of the graph per result wanted, beyond the share hidden from the caller.
OVERSAMPLE = 2.0
MIN_CANDIDATES = 64
EXTEND_SLICE = 2_000  # rows added per hold of the lock (a search waits at most that long)
SAVE_ROWS = 20_000  # rows added since the last save that make the graph worth saving again
# HNSW: 32 links per node and 128 candidates while adding, 64 while searching (widened to
# the count asked). 16 and 64 missed the 0.98 recall@10 goal at 1M rows (0.967-0.974);
# at 300k, 32 and 128 give 1.000 in every filter (was 0.994-0.998) for 3.4x the build CPU
# (391 CPU-s) and ~1.4x a search's (benchmarks/results/vector-ann-300000-i8-m32-e128-*).
CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH = 32, 128, 64
GRAPH_DTYPE = "i8"  # the graph's copy of the vectors; results are re-scored from float32


def usearch_index() -> Any | None:
    """usearch's ``Index`` class, or None when the package is missing (exact scans)."""
    _system_locale_first()
    try:
        from usearch.index import Index
    except ImportError:
        return None
    return Index


def _system_locale_first() -> None:
    """Initialise the system C++ library's locale before usearch loads.

    usearch's extension (2.26) carries its own static copy of libstdc++ and exports that
    copy's locale facet ids as ``STB_GNU_UNIQUE`` symbols, which the loader binds
    process-wide whatever the ``RTLD_LOCAL``. Whichever copy initialises its locale
    first numbers the facets for both: when it is usearch's, a library loaded later
    against the system libstdc++ (ONNX Runtime's extension) finds the wrong facet at an
    id and crashes the process in its static constructors (``codecvt<char16_t>::
    do_unshift``). Initialising the system library's classic locale first makes its
    numbering the one both use, the order that always worked (ONNX Runtime imported
    before usearch), without importing ONNX Runtime (0.3 s) where nothing embeds."""
    if not sys.platform.startswith("linux"):  # no GNU unique symbols to share there
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # no system libstdc++: no clash
        classic = ctypes.CDLL("libstdc++.so.6")._ZNSt6locale7classicEv  # locale::classic()
        classic.restype = ctypes.c_void_p
        classic()


def graph_file(folder: Path, matrix_file: str) -> Path:
    return folder / f"ann-{matrix_file.removesuffix('.f32')}.usearch"


class AnnGraph:
    """The graph of one vector folder, kept up with its rows."""

    def __init__(
        self,
        folder: Path,
        dimension: int,
        *,
        min_rows: int = ANN_MIN_ROWS,
        exact_rows: int = EXACT_ROWS,
    ) -> None:
        self._folder, self._dimension = folder, dimension
        self.min_rows, self.exact_rows = min_rows, exact_rows
        self.oversample = OVERSAMPLE  # candidates per result wanted (benchmarks vary it)
        # How a new graph is built: its vectors' type and links (benchmarks vary them).
        self.dtype = GRAPH_DTYPE
        self.connectivity, self.expansion_add = CONNECTIVITY, EXPANSION_ADD
        self._index_class: Any | None = None  # imported when a library first needs it
        self._graph: Any | None = None
        self._matrix_file = ""
        self._saved = 0  # rows in the file on disk
        self._lock = threading.Lock()  # the graph's adds and searches
        self._worker: threading.Thread | None = None

    # ------------------------------------------------------------------------- searching

    def search(
        self, rows: VectorRows, query: FloatArray, allowed: IntArray, limit: int
    ) -> tuple[IntArray, FloatArray] | None:
        """The best ``limit`` of the ``allowed`` rows (live rows the caller may see) and
        their exact scores, best first; None when the exact scan should answer (a small
        library or caller, no usearch, the graph not built yet)."""
        if self._index_class is None or rows.count < self.min_rows or self.scans(rows, allowed):
            return None
        self._keep_up(rows)
        with self._lock:
            graph, covered = self._graph, self._covered(rows)
            if graph is None or covered == 0:
                return None
            mask = np.zeros(rows.count, dtype=np.bool_)
            mask[allowed] = True
            share = allowed.size / rows.count
            found = _graph_candidates(graph, query, mask[:covered], share, limit, self.oversample)
        if found is None:
            return None
        tail = allowed[allowed >= covered]  # rows the graph does not hold yet: scanned
        candidates = np.concatenate([found, tail])
        scores = scores_of(rows.matrix, candidates, query)
        order = top_k(scores, limit)
        return candidates[order], scores[order]

    def scans(self, rows: VectorRows, allowed: IntArray) -> bool:
        """Whether scanning the ``allowed`` rows beats the graph: few rows, or a middle
        share of a large library (the graph's candidates grow as 1 / share, the scan's
        work as the rows: ``SCAN_SHARE_DIVISOR``)."""
        share = allowed.size / max(rows.count, 1)
        small = self.exact_rows
        return allowed.size <= small or allowed.size * share <= small / SCAN_SHARE_DIVISOR

    def _usable(self) -> bool:
        """Whether usearch is there (imported at the first library big enough)."""
        if self._index_class is None:
            self._index_class = usearch_index()
        return self._index_class is not None

    def _covered(self, rows: VectorRows) -> int:
        if self._graph is None or self._matrix_file != rows.matrix_file:
            return 0
        return min(len(self._graph), rows.count)

    # ------------------------------------------------------------------------- keeping up

    def _keep_up(self, rows: VectorRows) -> None:
        """Start the thread that loads, builds or extends the graph, if it has work."""
        if self._covered(rows) >= rows.count and self._graph is not None:
            return
        if self._worker is not None and self._worker.is_alive():
            return
        self._worker = threading.Thread(
            target=self._catch_up, args=(rows,), name="askalong-ann", daemon=True
        )
        self._worker.start()

    def update(self, rows: VectorRows) -> None:
        """Bring the graph up to ``rows`` now, in this thread (what an ingest does after
        adding vectors, so the next process finds the graph saved)."""
        if rows.count < self.min_rows or not self._usable():
            return
        self.wait()
        self._catch_up(rows)

    def _catch_up(self, rows: VectorRows) -> None:
        if self._matrix_file != rows.matrix_file or self._graph is None:
            graph, saved = self._opened(rows)
            with self._lock:
                self._graph, self._matrix_file, self._saved = graph, rows.matrix_file, saved
        self.extend(rows)

    def extend(self, rows: VectorRows) -> None:
        """Add the rows the graph lacks, a slice per hold of the lock; save when worth it."""
        graph = self._graph
        assert graph is not None
        while (start := len(graph)) < rows.count:
            end = min(rows.count, start + EXTEND_SLICE)
            block = np.ascontiguousarray(rows.matrix[start:end])
            with self._lock:
                graph.add(np.arange(start, end, dtype=np.uint64), block, threads=_threads())
        if len(graph) - self._saved >= SAVE_ROWS:
            self.save()

    def _opened(self, rows: VectorRows) -> tuple[Any, int]:
        """The saved graph of this matrix when it is whole and fits the rows, else an
        empty one (``extend`` fills it from the stored vectors)."""
        path = graph_file(self._folder, rows.matrix_file)
        assert self._index_class is not None
        if path.is_file():
            try:
                graph = self._index_class.restore(str(path))
                if self._fits(graph, rows):
                    return graph, len(graph)
            except (OSError, RuntimeError, ValueError):
                pass  # unreadable: built again from the rows
        return self._new_graph(), 0

    def _fits(self, graph: Any, rows: VectorRows) -> bool:
        """A saved graph of this dimension holding no row the matrix lacks."""
        return graph is not None and graph.ndim == self._dimension and len(graph) <= rows.count

    def _new_graph(self) -> Any:
        assert self._index_class is not None
        return self._index_class(
            ndim=self._dimension,
            metric="cos",
            dtype=self.dtype,
            connectivity=self.connectivity,
            expansion_add=self.expansion_add,
            expansion_search=EXPANSION_SEARCH,
        )

    def save(self) -> None:
        """Write the graph whole beside the matrix (temporary file, then rename); the
        files of earlier matrices go."""
        with self._lock:
            graph, name = self._graph, self._matrix_file
            if graph is None:
                return
            target = graph_file(self._folder, name)
            handle, temporary = tempfile.mkstemp(prefix=".tmp-ann-", dir=self._folder)
            os.close(handle)
            try:
                graph.save(temporary)
                os.replace(temporary, target)
            except (OSError, RuntimeError):
                return  # kept in memory; saved with the next rows (a full disk, a sweep)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
            self._saved = len(graph)
        for old in self._folder.glob("ann-*.usearch"):
            if old != target:
                with contextlib.suppress(OSError):
                    old.unlink()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the loading, building or extending thread (tests, benchmarks)."""
        if self._worker is not None:
            self._worker.join(timeout)

    def memory_bytes(self) -> int:
        return 0 if self._graph is None else int(self._graph.memory_usage)


def _graph_candidates(
    graph: Any,
    query: FloatArray,
    mask: npt.NDArray[np.bool_],
    share: float,
    limit: int,
    oversample: float = OVERSAMPLE,
) -> IntArray | None:
    """Rows of the graph the caller may see (``mask``), at least ``limit`` of the nearest,
    widening the search four-fold until enough survive; None: too few even at the widest
    (the exact scan answers)."""
    size = len(graph)
    wanted = max(MIN_CANDIDATES, math.ceil(limit * oversample / max(share, 1e-9)))
    while True:
        count = min(size, wanted)
        keys = np.asarray(graph.search(query, count, threads=1).keys, dtype=np.int64)
        kept = keys[mask[keys]]
        if kept.size >= min(limit, int(mask.sum())):
            return kept
        if count >= size or wanted > 64 * limit / max(share, 1e-9):
            return None
        wanted *= 4


def _threads() -> int:
    """Threads for building: the cores this process may use."""
    return max(1, len(os.sched_getaffinity(0)))
