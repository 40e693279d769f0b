"""Search latency on the PostgreSQL routes against the embedded ones, in one run, and the
filtered-ANN recall of the PostgreSQL vector route.

The library is ``permission_filter.py``'s: the real paragraphs of ``search_latency.py``
(CMRC, XQuAD, DRCD, SciFact) repeated to ``--chunks``, ten chunks to a document, owned by
20 users in turn, a third each private, ``org`` and public; deterministic pseudo-random
unit vectors (dimension 384) for chunks and queries. Every search runs as a user of one
team and its ancestors, who may see about 40 % of the chunks, so the permission filter
is inside every query. The embedded library (SQLite, tantivy, the memory-mapped exact
vectors) is built once under ``--cache``; the same documents, chunks and vectors are then
written to the PostgreSQL routes (a throwaway cluster from the ``pgserver`` wheel unless
``--database`` names one) in bulk (``pg_fill``: COPY, the indexes built after). Both
answer through the same ``Searcher`` over the same SQLite store, queries alternated between them.

Recall: for each query, the PostgreSQL vector route's top 10 (HNSW, filtered inside the
scan) against the embedded route's exact top 10 over the same visible rows.

    python benchmarks/server_search.py [--chunks 100000] [--queries 100]
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from _table import markdown_table, write_results
from askalong.index.pg_routes import PostgresRoutes
from askalong.index.pg_schema import Pool
from askalong.index.sync import SearchIndexes
from askalong.retrieve.search import Searcher
from permission_filter import CACHE, CALLER, RandomVectors, opened, shared
from permission_filter import _vectors as chunk_vectors
from pg_fill import fill_keyword, fill_vectors
from search_latency import REPEATS, documents, paragraphs, questions
from server_keyword import database


def fill(pool: Pool, routes: PostgresRoutes, size: int, texts: Sequence[str]) -> dict[str, float]:
    """The embedded library's documents and vectors into the PostgreSQL routes, in bulk
    (``pg_fill``); seconds per part."""
    stored = shared(documents(texts, size))
    times = {"keyword": fill_keyword(pool, stored)}
    vectors = routes.vectors
    assert vectors is not None
    times["vectors"], times["hnsw"] = fill_vectors(pool, vectors, chunk_vectors(stored))
    started = time.perf_counter()
    with pool.connection() as connection:
        connection.autocommit = True
        connection.execute("VACUUM ANALYZE")  # what autovacuum does after a bulk load
    times["analyze"] = time.perf_counter() - started
    return times


def modes(searcher: Searcher) -> dict[str, Callable[[str], object]]:
    return {
        "keyword": lambda q: searcher.search(q, CALLER, use_vectors=False),
        "vector": lambda q: searcher.ranking(q, CALLER, use_keyword=False),
        "hybrid": lambda q: searcher.search(q, CALLER),
    }


def timed_pair(
    embedded: Callable[[str], object], server: Callable[[str], object], queries: Sequence[str]
) -> tuple[list[float], list[float]]:
    """Milliseconds per call on each, alternated query by query (same machine load)."""
    for query in queries[:10]:
        embedded(query), server(query)
    runs: tuple[list[float], list[float]] = ([], [])
    for _ in range(REPEATS):
        for query in queries:
            for run, out in ((embedded, runs[0]), (server, runs[1])):
                started = time.perf_counter()
                run(query)
                out.append((time.perf_counter() - started) * 1000)
    return runs


def recall(
    indexes: SearchIndexes, routes: PostgresRoutes, queries: Sequence[str], k: int = 10
) -> float:
    """Mean share of the exact filtered top ``k`` that the PostgreSQL route finds."""
    local, server, embedder = indexes.vectors, routes.vectors, routes.embedder
    assert local is not None and server is not None and embedder is not None
    scope = server.scope(CALLER)
    assert scope == local.scope(CALLER)
    shares = []
    for query in queries:
        vector = embedder.embed_query(query)
        exact = {hit.chunk_id for hit in local.search(vector, scope, limit=k)}
        found = {hit.chunk_id for hit in server.search(vector, scope, limit=k)}
        shares.append(len(exact & found) / k)
    return float(np.mean(shares))


def percentiles(runs: Sequence[float]) -> tuple[float, float]:
    return statistics.median(runs), statistics.quantiles(runs, n=20)[-1]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--cache", type=Path, default=CACHE, help="built embedded libraries")
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a new one)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    texts, queries = paragraphs(), questions(args.queries)
    indexes = opened(args.chunks, texts, args.cache)
    rows = []
    with database(args.database) as pool, PostgresRoutes(pool, indexes.store, RandomVectors) as pg:
        built = fill(pool, pg, args.chunks, texts)
        print(f"PostgreSQL routes filled: {built}", file=sys.stderr)
        embedded, server = Searcher(indexes.store, indexes), Searcher(indexes.store, pg)
        for mode, run in modes(embedded).items():
            local_runs, server_runs = timed_pair(run, modes(server)[mode], queries)
            rows.append((mode, percentiles(local_runs), percentiles(server_runs)))
        found = recall(indexes, pg, queries)
        version = ".".join(map(str, pg.vectors.version or ())) if pg.vectors else "none"
    indexes.close()
    indexes.store.close()
    write_results(report(args, len(queries), rows, built, found, version), _name(), args.out)


def report(
    args: argparse.Namespace,
    queries: int,
    rows: Sequence[tuple[str, tuple[float, float], tuple[float, float]]],
    built: dict[str, float],
    found: float,
    version: str,
) -> str:
    header = ("chunks", "mode", "embedded p50 ms", "PostgreSQL p50 ms", "embedded p95 ms")
    header += ("PostgreSQL p95 ms",)
    cells = [
        (f"{args.chunks:,}", mode, f"{a[0]:.1f}", f"{b[0]:.1f}", f"{a[1]:.1f}", f"{b[1]:.1f}")
        for mode, a, b in rows
    ]
    return (
        f"# Search on PostgreSQL vs embedded, {datetime.date.today().isoformat()}\n\n"
        f"`python benchmarks/server_search.py --chunks {args.chunks} --queries {queries}`: "
        f"{queries} real questions x {REPEATS} rounds on each, alternated, as a user who may "
        f"see ~40 % of the chunks; PostgreSQL 16 with pgvector {version} (the `pgserver` "
        f"wheel, default settings) on this machine ({os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the end). Filling the PostgreSQL routes in bulk took "
        f"{built['keyword']:.0f} s (keyword rows and their indexes), {built['vectors']:.0f} s "
        f"(vectors), {built['hnsw']:.0f} s (the HNSW index) and {built['analyze']:.0f} s "
        "(VACUUM ANALYZE).\n\n"
        + markdown_table(header, "rlrrrr", cells)
        + f"\nFiltered-ANN recall@10 of the PostgreSQL vector route against the exact "
        f"filtered top 10: **{found:.3f}** ({queries} queries).\n"
    )


def _name() -> str:
    return f"server-search-{datetime.date.today().isoformat()}.md"


if __name__ == "__main__":
    main()
