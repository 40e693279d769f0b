"""The contradiction scan's neighbour reads in server mode against the embedded one, in
one run: the time to find one document's neighbours, and how many of the exact
neighbours each arm finds.

``--chunks`` deterministic pseudo-random unit vectors (dimension 384), ten to a document;
one chunk of each document is a near copy (cosine about 0.95) of a chunk of the document
before it, so every scanned document has true neighbours. Arms: the embedded
``IndexNeighbours`` (memory-mapped matrix, one product), ``PostgresNeighbours`` with
pgvector (HNSW, a lateral join), and without it (vectors as bytes, exact in numpy); the
PostgreSQL arms on a throwaway cluster from the ``pgserver`` wheel unless ``--database``
names one. Each arm scans the same ``--scans`` documents.

    python benchmarks/conflicts_server.py [--chunks 20000] [--scans 50]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from _table import markdown_table, write_results
from askalong.index.neighbours import IndexNeighbours, Neighbours
from askalong.index.pg_keyword import PostgresKeywordRoute
from askalong.index.pg_neighbours import PostgresNeighbours
from askalong.index.pg_schema import Pool
from askalong.index.pg_vector import PostgresVectorRoute
from askalong.index.vector_rows import DocumentVectors
from askalong.index.vectors import VectorIndex
from askalong.maintain.conflict_scan import MIN_COSINE, NEIGHBOURS
from pg_fill import fill_vectors
from server_keyword import database

DIMENSION = 384
PER_DOCUMENT = 10


def documents(chunks: int) -> Iterator[DocumentVectors]:
    """Random unit vectors, each document's first chunk a near copy of the one before's."""
    rng = np.random.default_rng(7)
    before: np.ndarray | None = None
    for n in range(chunks // PER_DOCUMENT):
        matrix = rng.standard_normal((PER_DOCUMENT, DIMENSION)).astype(np.float32)
        if before is not None:
            matrix[0] = before[3] + 0.33 * matrix[0] / np.linalg.norm(matrix[0])
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        before = matrix
        ids = tuple(f"d{n}:{k}" for k in range(PER_DOCUMENT))
        yield DocumentVectors(f"d{n}", ids, matrix, ("",) * PER_DOCUMENT)


def timed(arm: Neighbours, scanned: list[str]) -> tuple[list[float], set[tuple[str, str]]]:
    """Milliseconds per document, and the (own, other) pairs found."""
    times, found = [], set()
    for document_id in scanned:
        own = [f"{document_id}:{k}" for k in range(PER_DOCUMENT)]
        started = time.perf_counter()
        nearby = arm.near(document_id, own, min_cosine=MIN_COSINE, limit=NEIGHBOURS)
        times.append(1000 * (time.perf_counter() - started))
        found |= {(n.own, n.other) for n in nearby.neighbours}
    return times, found


def server_arms(pool: Pool, entries: list[DocumentVectors]) -> dict[str, Neighbours]:
    keyword = PostgresKeywordRoute(pool)
    hnsw = PostgresVectorRoute(pool, keyword, "bench-hnsw", DIMENSION)
    fill_vectors(pool, hnsw, entries)
    plain = PostgresVectorRoute(pool, keyword, "bench-plain", DIMENSION, pgvector=False)
    for entry in entries:
        plain.add(entry.document_id, entry.chunk_ids, entry.matrix)
    with pool.connection() as connection:
        connection.execute("VACUUM ANALYZE")
    return {
        "PostgreSQL, pgvector": PostgresNeighbours(hnsw),
        "PostgreSQL, plain": PostgresNeighbours(plain),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--scans", type=int, default=50)
    parser.add_argument("--database", help="a PostgreSQL URL (default: a throwaway cluster)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    entries = list(documents(args.chunks))
    step = max(1, len(entries) // args.scans)
    scanned = [entries[i].document_id for i in range(1, len(entries), step)][: args.scans]
    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="askalong-bench-") as folder,
        database(args.database) as pool,
    ):
        index = VectorIndex(Path(folder), DIMENSION)
        for entry in entries:
            index.add(entry.document_id, entry.chunk_ids, entry.matrix)
        arms: dict[str, Neighbours] = {"embedded": IndexNeighbours(index)}
        arms.update(server_arms(pool, entries))
        exact: set[tuple[str, str]] | None = None
        for name, arm in arms.items():
            timed(arm, scanned[:3])  # warm: caches, the first connection
            times, found = timed(arm, scanned)
            exact = found if exact is None else exact
            share = len(found & exact) / len(exact) if exact else 1.0
            p95 = statistics.quantiles(times, n=20)[-1]
            rows.append(
                (
                    name,
                    f"{statistics.median(times):.1f}",
                    f"{p95:.1f}",
                    str(len(found)),
                    f"{share:.3f}",
                )
            )
    header = ("arm", "p50 ms / document", "p95 ms / document", "pairs found", "share of exact")
    table = markdown_table(header, "lrrrr", rows)
    text = (
        "# Contradiction scan neighbours, server against embedded "
        f"({datetime.date(2026, 12, 5)})\n\n"
        f"`python benchmarks/conflicts_server.py --chunks {args.chunks} --scans {args.scans}`: "
        f"{args.chunks} random unit vectors (dimension {DIMENSION}), {PER_DOCUMENT} to a document, "
        f"{len(scanned)} documents scanned per arm ({PER_DOCUMENT} chunks each, "
        f"cosine >= {MIN_COSINE}, at most {NEIGHBOURS} neighbours a chunk).\n\n{table}\n"
    )
    write_results(text, "conflicts-server-2026-12-05.md", args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
