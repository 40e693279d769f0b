"""The permission filter's cost: search p50/p95 with and without it, same index, same run.

One library per size: the real paragraphs of ``search_latency.py`` (CMRC, XQuAD, DRCD,
SciFact) repeated to size, ten chunks to a document, the documents owned by 20 users in
turn, a third each private, ``org`` (tagged with one of five teams) and public. The
searches without the filter run as the local owner (``Access.local()``: no clause at
all); those with it as a user in one team and its two ancestors, who may see about 40 %
of the chunks (the tantivy clause is a disjunction of term queries over the access tokens;
the vector route scores only the rows of the documents the keyword route's tokens allow).

The chunk vectors are deterministic pseudo-random unit vectors of the default embedder's
dimension (the exact cosine scan costs the same for any values), as are the query
vectors, so the timing excludes the embedder. The library is built in bulk (the store's
rows in one transaction, the keyword index in one writer commit, the vectors in one
append; originals are not written: no search reads them) and kept under ``--cache``, in
a folder named by the build's parameters, so a re-run only measures.

    python benchmarks/permission_filter.py [--sizes 10000 100000] [--queries 100]
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from _table import markdown_table, write_results
from askalong.config import load_settings
from askalong.index.keyword_schema import SCHEMA_VERSION
from askalong.index.sync import SearchIndexes
from askalong.index.vector_rows import DocumentVectors
from askalong.providers.base import Embedder, EmbedKind
from askalong.retrieve.search import Searcher
from askalong.store.backends import open_store
from askalong.store.sql.documents import insert_stored
from askalong.types import Access, StoredDocument, Visibility
from search_latency import (
    CHUNKS_PER_DOCUMENT,
    DIMENSION,
    REPEATS,
    Row,
    documents,
    paragraphs,
    questions,
    sized_arguments,
)
from search_latency import row as row_of

ROOT = Path(__file__).resolve().parents[1]
USERS, TEAMS = 20, 5
VISIBILITIES: tuple[Visibility, ...] = ("private", "org", "public")
CALLER = Access(user="user3", orgs=("co", "dept1", "team1"))
NO_FILTER = Access.local()
CACHE = Path("/tmp/askalong-permission")
VECTOR_SEED = 14


class RandomVectors(Embedder):
    """A fixed random unit vector per text: no model, the same scan cost."""

    def __init__(self) -> None:
        super().__init__(name="bench-permission", dimension=DIMENSION)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            rows.append(np.random.default_rng(seed).standard_normal(DIMENSION))
        return np.asarray(rows, dtype=np.float32)


def shared(stored: Iterable[StoredDocument]) -> list[StoredDocument]:
    """The documents given owners, visibilities and teams in turn."""
    out = []
    for i, item in enumerate(stored):
        document = replace(
            item.document,
            owner=f"user{i % USERS}",
            visibility=VISIBILITIES[i % len(VISIBILITIES)],
            org_tags=(f"team{i % TEAMS}",),
        )
        out.append(replace(item, document=document))
    return out


# ----------------------------------------------------------------------------- building


def build_key(size: int, texts: Sequence[str]) -> str:
    """The cached library's folder name: every parameter the built library depends on."""
    digest = hashlib.sha256("\0".join(texts).encode()).hexdigest()
    parameters = {
        "size": size,
        "users": USERS,
        "teams": TEAMS,
        "visibilities": VISIBILITIES,
        "chunks_per_document": CHUNKS_PER_DOCUMENT,
        "dimension": DIMENSION,
        "vector_seed": VECTOR_SEED,
        "keyword_schema": SCHEMA_VERSION,
        "texts": digest,
    }
    return f"{size}-" + hashlib.sha256(json.dumps(parameters).encode()).hexdigest()[:12]


def built(indexes: SearchIndexes, marker: Path, size: int) -> bool:
    """Whether the cached library is whole: its marker, and every route still full (a
    keyword schema change, say, empties the index when it is opened)."""
    if not marker.is_file():
        return False
    vectors = indexes.vectors
    assert vectors is not None
    expected = -(-size // CHUNKS_PER_DOCUMENT)
    whole = len(indexes.keyword.document_ids()) == expected
    return whole and vectors.index.stats().live == size


def build(indexes: SearchIndexes, size: int, texts: Sequence[str]) -> dict[str, float]:
    """Fill the store, the keyword index and the vectors in bulk; seconds per part."""
    times: dict[str, float] = {}
    started = time.perf_counter()
    stored = shared(documents(texts, size))
    with sqlite3.connect(indexes.settings.database_path, isolation_level=None) as conn:
        conn.execute("BEGIN IMMEDIATE")  # one transaction for every row
        for item in stored:
            insert_stored(conn, item)
        conn.execute("COMMIT")
    times["store"] = time.perf_counter() - started
    indexes.keyword.add_many((item.document, item.chunks) for item in stored)
    times["keyword"] = time.perf_counter() - started - sum(times.values())
    vectors = indexes.vectors
    assert vectors is not None
    vectors.index.add_many(list(_vectors(stored)))
    times["vectors"] = time.perf_counter() - started - sum(times.values())
    return times


def _vectors(stored: Sequence[StoredDocument]) -> Iterable[DocumentVectors]:
    rng = np.random.default_rng(VECTOR_SEED)
    for item in stored:
        ids = [chunk.id for chunk in item.chunks]
        matrix = rng.standard_normal((len(ids), DIMENSION)).astype(np.float32)
        yield DocumentVectors.of(item.document.id, ids, matrix, None, DIMENSION)


def opened(size: int, texts: Sequence[str], cache: Path) -> SearchIndexes:
    """The library of ``size`` chunks under ``cache``, built first unless it is there."""
    home = cache / build_key(size, texts)
    settings = replace(load_settings(), home=home, embedder="local")
    marker = home / "built.json"
    indexes = SearchIndexes(settings, open_store(settings), RandomVectors)
    if built(indexes, marker, size):
        return indexes
    _close(indexes)
    shutil.rmtree(home, ignore_errors=True)  # half built or stale: start clean
    indexes = SearchIndexes(settings, open_store(settings), RandomVectors)
    times = build(indexes, size, texts)
    marker.write_text(json.dumps({"size": size, "seconds": times}))
    parts = ", ".join(f"{part} {seconds:.1f} s" for part, seconds in times.items())
    print(f"built {size:,} chunks under {home}: {parts}", file=sys.stderr)
    return indexes


def _close(indexes: SearchIndexes) -> None:
    indexes.close()
    indexes.store.close()


# ----------------------------------------------------------------------------- timing


def timed_pair(
    run: Callable[[str, Access], object], queries: Sequence[str]
) -> tuple[list[float], list[float]]:
    """Milliseconds per call without and with the filter, alternated query by query so
    both see the same machine load."""
    for query in queries[:10]:
        run(query, NO_FILTER), run(query, CALLER)
    plain: list[float] = []
    filtered: list[float] = []
    for _ in range(REPEATS):
        for query in queries:
            for access, runs in ((NO_FILTER, plain), (CALLER, filtered)):
                started = time.perf_counter()
                run(query, access)
                runs.append((time.perf_counter() - started) * 1000)
    return plain, filtered


def measure(
    size: int, texts: Sequence[str], queries: Sequence[str], cache: Path
) -> list[tuple[Row, Row]]:
    indexes = opened(size, texts, cache)
    try:
        searcher = Searcher(indexes.store, indexes)
        modes: dict[str, Callable[[str, Access], object]] = {
            "keyword": lambda q, a: searcher.search(q, a, use_vectors=False),
            "vector": lambda q, a: searcher.ranking(q, a, use_keyword=False),
            "hybrid": lambda q, a: searcher.search(q, a),
        }
        out = []
        for mode, run in modes.items():
            plain, filtered = timed_pair(run, queries)
            out.append((row_of(size, mode, plain), row_of(size, mode, filtered)))
        return out
    finally:
        _close(indexes)


def table(pairs: Sequence[tuple[Row, Row]]) -> str:
    header = ("chunks", "mode", "p50 no filter ms", "p50 filter ms", "p50 ratio")
    header += ("p95 no filter ms", "p95 filter ms", "runs each")
    cells = [_cells(plain, filtered) for plain, filtered in pairs]
    return markdown_table(header, "rlrrrrrr", cells)


def _cells(plain: Row, filtered: Row) -> tuple[str, ...]:
    ratio = filtered.p50 / plain.p50
    return (
        f"{plain.size:,}",
        plain.mode,
        f"{plain.p50:.1f}",
        f"{filtered.p50:.1f}",
        f"{ratio:.2f}",
        f"{plain.p95:.1f}",
        f"{filtered.p95:.1f}",
        f"{plain.runs}",
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = sized_arguments(__doc__, 100, argv, cache=CACHE)
    texts, queries = paragraphs(), questions(args.queries)
    pairs = [pair for size in args.sizes for pair in measure(size, texts, queries, args.cache)]
    today = datetime.date.today().isoformat()
    text = (
        f"# Permission filter cost, {today}\n\n"
        f"{len(queries)} real questions x {REPEATS} rounds, each run without the filter "
        f"(the local owner) and with it (a user of one team and its ancestors, ~40 % of "
        f"the chunks visible), alternated; deterministic pseudo-random unit vectors "
        f"(dimension {DIMENSION}) for chunks and queries, not the embedder's. "
        f"Load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n\n"
        + table(pairs)
    )
    write_results(text, f"permission-filter-{today}.md", args.out)


if __name__ == "__main__":
    main()
