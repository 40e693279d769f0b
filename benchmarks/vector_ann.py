"""The vector route at 100k and 1M chunks (issue 28): the nearest-neighbour graph
(``index/vector_ann.py``) beside the exact numpy scan over the same rows, in the same run,
with the access filter applied (everything, half, a tenth, a fiftieth of the documents).

Synthetic vectors (dimension 384, ten chunks to a document): unit vectors around
``size / 100`` centres with noise, as embeddings of related texts cluster; the queries are
drawn the same way. For each size: the time to write the rows and to build the graph (CPU
seconds of all threads, and wall), the graph's memory and the process's peak RSS, then per
filter the p50/p95 CPU milliseconds of a search (``VectorIndex.search``, 150 results, what
the searcher asks) through the graph and by the exact scan, and recall@10 of the graph's
results against the exact ones. The raw usearch search (no filter, 150 results) is the
anchor row.

    python benchmarks/vector_ann.py [--sizes 100000 1000000] [--queries 100]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from _table import markdown_table, write_results
from askalong.index.vector_ann import CONNECTIVITY, EXPANSION_ADD, GRAPH_DTYPE, OVERSAMPLE
from askalong.index.vector_rows import DocumentVectors, VectorRows
from askalong.index.vectors import VectorIndex

DIMENSION, CHUNKS, LIMIT = 384, 10, 150
FILTERS = {"everything": 1.0, "half": 0.5, "a tenth": 0.1, "a fiftieth": 0.02}
WRITE_BATCH = 5_000  # documents per append


def clustered(count: int, centres: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    points = centres[rng.integers(0, len(centres), count)]
    points = points + 0.6 * rng.standard_normal((count, DIMENSION), dtype=np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def write_rows(index: VectorIndex, size: int, centres: np.ndarray) -> None:
    rng = np.random.default_rng(1)
    documents = size // CHUNKS
    for start in range(0, documents, WRITE_BATCH):
        count = min(WRITE_BATCH, documents - start)
        vectors = clustered(count * CHUNKS, centres, rng)
        index.add_many(
            [
                DocumentVectors.of(
                    f"d{start + d}",
                    [f"d{start + d}:{c}" for c in range(CHUNKS)],
                    vectors[d * CHUNKS : (d + 1) * CHUNKS],
                    None,
                    DIMENSION,
                )
                for d in range(count)
            ]
        )


def timed(call: Callable[[], list[str]]) -> tuple[float, list[str]]:
    """CPU milliseconds of ``call`` (every thread of the process), and what it returned."""
    started = time.process_time()
    found = call()
    return (time.process_time() - started) * 1000, found


def run_size(
    size: int, queries: int, oversamples: list[float], built: argparse.Namespace
) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(2)
    centres = rng.standard_normal((max(size // 100, 10), DIMENSION)).astype(np.float32)
    asked = clustered(queries, centres, np.random.default_rng(3))
    with tempfile.TemporaryDirectory(prefix="vector-ann-") as tmp:
        index = VectorIndex(Path(tmp), DIMENSION)
        index.graph.dtype = built.dtype
        index.graph.connectivity, index.graph.expansion_add = built.connectivity, built.expansion
        cpu, wall = time.process_time(), time.perf_counter()
        write_rows(index, size, centres)
        written = (time.process_time() - cpu, time.perf_counter() - wall)
        cpu, wall = time.process_time(), time.perf_counter()
        index.update_graph()
        built = (time.process_time() - cpu, time.perf_counter() - wall)
        rows = index.snapshot()
        notes = [
            f"{size:,} rows: written in {written[0]:.0f} CPU s ({written[1]:.0f} s wall); "
            f"graph built in {built[0]:.0f} CPU s ({built[1]:.0f} s wall), "
            f"graph memory {index.graph.memory_bytes() / 1e6:.0f} MB, matrix "
            f"{rows.count * DIMENSION * 4 / 1e6:.0f} MB (memory-mapped), peak RSS "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:.0f} MB"
        ]
        table = [_raw_row(size, index, asked)]
        for name, share in FILTERS.items():
            table += _filter_rows(size, name, share, index, rows, asked, oversamples)
        index.close()
    return notes, table


def _raw_row(size: int, index: VectorIndex, asked: np.ndarray) -> list[str]:
    graph = index.graph._graph  # the raw library, unfiltered: the anchor
    times = [timed(lambda q=q: list(graph.search(q, LIMIT, threads=1).keys))[0] for q in asked]
    return [f"{size:,}", "usearch raw (no filter)", *_spread(times), "", "", "", ""]


def _filter_rows(
    size: int,
    name: str,
    share: float,
    index: VectorIndex,
    rows: VectorRows,
    asked: np.ndarray,
    oversamples: list[float],
) -> list[list[str]]:
    """One row per oversampling of the graph's candidates, the exact scan timed once. The
    allowed documents are a frozenset, as the route's scope hands them over (their rows
    are then remembered by the snapshot, as in a search)."""
    documents = size // CHUNKS
    picked = np.random.default_rng(4).random(documents) < share
    allowed = None if share == 1.0 else frozenset(f"d{d}" for d in np.flatnonzero(picked))
    candidates = rows.candidates(allowed)
    exact_ms, exacts = [], []
    for query in asked:
        took, exact = timed(lambda q=query: _exact_ids(rows, q, allowed))
        exact_ms.append(took)
        exacts.append(exact)
    table = []
    for oversample in oversamples:
        index.graph.oversample = oversample
        graph_ms, recalls, hidden = [], [], 0
        for query, exact in zip(asked, exacts, strict=True):
            took, found = timed(lambda q=query: _ids(index, q, allowed))
            graph_ms.append(took)
            recalls.append(len(set(found[:10]) & set(exact[:10])) / 10)
            hidden += sum(allowed is not None and f.split(":")[0] not in allowed for f in found)
        shown = f"{candidates.size:,}"
        table.append([f"{size:,}", f"graph, {name} ({shown} rows), oversample {oversample:g}",
                      *_spread(graph_ms), *_spread(exact_ms), f"{statistics.mean(recalls):.3f}",
                      str(hidden)])  # fmt: skip
    index.graph.oversample = OVERSAMPLE
    return table


def _ids(index: VectorIndex, query: np.ndarray, allowed: frozenset[str] | None) -> list[str]:
    return [h.chunk_id for h in index.search(query, allowed_document_ids=allowed, limit=LIMIT)]


def _exact_ids(rows: VectorRows, query: np.ndarray, allowed: frozenset[str] | None) -> list[str]:
    """The numpy scan the route ran before the graph (permission rows included)."""
    return [h.chunk_id for h in rows.search(query, allowed, LIMIT)]


def _spread(times: list[float]) -> list[str]:
    return [f"{statistics.median(times):.2f}", f"{statistics.quantiles(times, n=20)[-1]:.2f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--oversample", type=float, nargs="+", default=[OVERSAMPLE])
    parser.add_argument("--dtype", default=GRAPH_DTYPE, help="the graph's vectors: i8, f16")
    parser.add_argument("--connectivity", type=int, default=CONNECTIVITY, help="graph links")
    parser.add_argument("--expansion", type=int, default=EXPANSION_ADD, help="while adding")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    notes: list[str] = []
    table: list[list[str]] = []
    for size in args.sizes:
        more_notes, more_rows = run_size(size, args.queries, args.oversample, args)
        notes += more_notes
        table += more_rows
    header = ["chunks", "search", "p50 CPU ms", "p95 CPU ms", "exact p50", "exact p95",
              "recall@10 vs exact", "hidden chunks returned"]  # fmt: skip
    text = (
        f"# Vector route: graph vs exact scan ({datetime.now(UTC):%Y-%m-%d})\n\n"
        f"{args.queries} queries, {LIMIT} results each; load {load_start:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores. Graph: usearch "
        f"connectivity {args.connectivity}, expansion while adding {args.expansion}, {args.dtype}; "
        "'oversample': graph candidates per result wanted, before the share hidden from "
        "the caller (each is re-scored exactly).\n\n"
        + "".join(f"- {note}\n" for note in notes)
        + "\n"
        + markdown_table(header, "rlrrrrrr", table)
    )
    sizes = "-".join(str(s) for s in args.sizes)
    graph = f"{args.dtype}-m{args.connectivity}-e{args.expansion}"
    name = f"vector-ann-{sizes}-{graph}-{datetime.now(UTC):%Y-%m-%d}.md"
    write_results(text, name, args.out)


if __name__ == "__main__":
    main()
