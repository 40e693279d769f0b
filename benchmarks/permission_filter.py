"""The permission filter's cost: search p50/p95 with and without it, same index, same run.

One library per size under ``$ASKALONG_HOME/permission/<size>/``: the real paragraphs of
``search_latency.py`` (CMRC, XQuAD, DRCD, SciFact) repeated to size, ten chunks to a
document, the documents owned by 20 users in turn, a third each private, ``org``
(tagged with one of five teams) and public. The searches without the filter run as the
local owner (``Access.local()``: no clause at all); those with it as a user in one team
and its two ancestors, who may see about 40 % of the chunks (the tantivy clause is a
term-set over the access tokens; the vector route scores only the rows of the documents
the keyword route's tokens allow). Chunk and query vectors are random unit vectors (the
exact cosine scan costs the same for any values), so the timing excludes the embedder.

    python benchmarks/permission_filter.py [--sizes 10000 100000] [--queries 100]
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from _table import markdown_table, write_results
from askalong.config import Settings, load_settings
from askalong.index.sync import SearchIndexes
from askalong.providers.base import Embedder, EmbedKind
from askalong.retrieve.search import Searcher
from askalong.store.backends import open_store
from askalong.types import Access, Chunk, Document, StoredDocument, Visibility
from search_latency import (
    DIMENSION,
    REPEATS,
    Row,
    content,
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


def shared(stored: Iterator[StoredDocument]) -> Iterator[StoredDocument]:
    """The documents given owners, visibilities and teams in turn."""
    for i, item in enumerate(stored):
        document = replace(
            item.document,
            owner=f"user{i % USERS}",
            visibility=VISIBILITIES[i % len(VISIBILITIES)],
            org_tags=(f"team{i % TEAMS}",),
        )
        yield replace(item, document=document)


def build(settings: Settings, size: int, texts: Sequence[str], indexes: SearchIndexes) -> None:
    marker = settings.home / "built.json"
    if marker.is_file() and json.loads(marker.read_text())["size"] == size:
        return
    started = time.perf_counter()
    batch: list[tuple[Document, Sequence[Chunk]]] = []
    for item in shared(documents(texts, size)):
        indexes.store.add_document(item, content(item))
        batch.append((item.document, item.chunks))
        if len(batch) >= 500:
            _add(indexes, batch)
            batch = []
    _add(indexes, batch)
    pending = indexes.pending_vectors()
    assert indexes.embed(pending).error is None
    marker.write_text(json.dumps({"size": size, "seconds": time.perf_counter() - started}))
    print(f"built {size} chunks in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def _add(indexes: SearchIndexes, batch: list[tuple[Document, Sequence[Chunk]]]) -> None:
    if batch:
        indexes.keyword.add_many(batch)


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


def measure(size: int, texts: Sequence[str], queries: Sequence[str]) -> list[tuple[Row, Row]]:
    base = load_settings()
    settings = replace(base, home=base.home / "permission" / str(size), embedder="local")
    store = open_store(settings)
    indexes = SearchIndexes(settings, store, RandomVectors)
    try:
        build(settings, size, texts, indexes)
        searcher = Searcher(store, indexes)
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
        indexes.close()
        store.close()


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
    args = sized_arguments(__doc__, 100, argv)
    texts, queries = paragraphs(), questions(args.queries)
    pairs = [pair for size in args.sizes for pair in measure(size, texts, queries)]
    today = datetime.date.today().isoformat()
    text = (
        f"# Permission filter cost, {today}\n\n"
        f"{len(queries)} real questions x {REPEATS} rounds, each run without the filter "
        f"(the local owner) and with it (a user of one team and its ancestors, ~40 % of "
        f"the chunks visible), alternated; random unit vectors (dimension {DIMENSION}). "
        f"Load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n\n"
        + table(pairs)
    )
    write_results(text, f"permission-filter-{today}.md", args.out)


if __name__ == "__main__":
    main()
