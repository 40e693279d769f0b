"""Search latency: hybrid, keyword-only and vector-only search over 10k and 100k chunks.

The chunks are real text: every paragraph of CMRC 2018 (dev, trial), XQuAD (en, zh),
DRCD and the SciFact abstracts (~7,700 paragraphs, Chinese and English), repeated to
reach the size, ten chunks per document, every document public and searched by a
signed-in user (the permission filter runs). Embedding 100k chunks with the local model
would take hours on this machine, so the chunk vectors are random unit vectors (the
exact cosine scan costs the same for any values); the query vectors are the real
embedder's, computed once up front, so the timed search excludes embedding the query.
The embedder's own time for one query is measured and printed beside it.

Each query runs ``REPEATS`` times, in rounds, and p50/p95 are taken over all runs: the
machine is shared, so medians over repeated runs are what to compare. The libraries
are built once under ``$ASKALONG_HOME/latency/`` and reused.

    python benchmarks/search_latency.py [--sizes 10000 100000] [--queries 200]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import hashlib
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import tantivy

from _table import markdown_table, write_results
from askalong.config import Settings, load_settings
from askalong.evaluate.datasets import load_dataset
from askalong.index import keyword_schema
from askalong.index.keyword import KeywordIndex
from askalong.index.keyword_query import document_filters, text_query, unscored
from askalong.index.keyword_schema import search_grams, search_tokens
from askalong.index.sync import SearchIndexes
from askalong.index.vector_rows import DocumentVectors, top_k
from askalong.index.vectors import VectorIndex
from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.choose import make_embedder
from askalong.retrieve.search import Searcher
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.types import Access, Block, BlockSpan, Chunk, Document, StoredDocument
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "qa/cmrc2018/cmrc2018_dev.json",
    "qa/cmrc2018/cmrc2018_trial.json",
    "qa/xquad/xquad.en.json",
    "qa/xquad/xquad.zh.json",
    "qa/drcd/DRCD_dev.json",
    "retrieval/scifact",
)
QUERY_SOURCES = (
    "qa/xquad/xquad.en.json",
    "qa/xquad/xquad.zh.json",
    "qa/cmrc2018/cmrc2018_dev.json",
)
CHUNKS_PER_DOCUMENT = 10
DIMENSION = 384
REPEATS = 5
USER = Access(user="bench")


class QueryVectors(Embedder):
    """The real embedder's query vectors, computed up front; random passage vectors."""

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        super().__init__(name="bench-random", dimension=DIMENSION)
        self._vectors = vectors
        self._random = np.random.default_rng(7)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        if kind == "query":
            return np.stack([self._vectors[text] for text in texts])
        return self._random.standard_normal((len(texts), DIMENSION)).astype(np.float32)


@dataclass(frozen=True)
class Row:
    size: int
    mode: str
    p50: float  # milliseconds
    p95: float
    runs: int
    cpu_p50: float = 0.0  # CPU milliseconds of the process (the machine is shared)
    cpu_p95: float = 0.0


# ----------------------------------------------------------------------------- data


def paragraphs() -> list[str]:
    texts: list[str] = []
    for source in SOURCES:
        for document in load_dataset(EVALDATA / source).documents:
            texts.extend(p for p in document.paragraphs if p.strip())
    return texts


def questions(count: int) -> list[str]:
    """``count`` real questions, taken in turn from English and Chinese sets."""
    pools = [[q.text for q in load_dataset(EVALDATA / s).queries] for s in QUERY_SOURCES]
    picked = [pool[i] for i in range(count) for pool in pools if i < len(pool)]
    return picked[:count]


def documents(texts: Sequence[str], size: int) -> Iterator[StoredDocument]:
    """``size`` chunks of ``texts`` (repeated as needed), ten to a public document."""
    for start in range(0, size, CHUNKS_PER_DOCUMENT):
        count = min(CHUNKS_PER_DOCUMENT, size - start)
        parts = [texts[(start + i) % len(texts)] for i in range(count)]
        yield _document(f"{start // CHUNKS_PER_DOCUMENT:06d}", parts)


def content(stored: StoredDocument) -> bytes:
    return "\n\n".join([stored.document.source, *(b.text for b in stored.blocks)]).encode()


def _document(number: str, parts: Sequence[str]) -> StoredDocument:
    digest = hashlib.sha256("\n\n".join([f"bench-{number}", *parts]).encode()).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title=f"bench {number}",
        source=f"bench-{number}",
        format="text",
        language="mixed",
        page_count=1,
        size_bytes=sum(len(p) for p in parts),
        created="2026-01-01T00:00:00+00:00",
        owner="someone-else",
        visibility="public",
    )
    blocks = tuple(
        Block(id=f"b{i}", kind="paragraph", text=text, order=i) for i, text in enumerate(parts)
    )
    chunks = tuple(
        Chunk(
            id=f"{document.id}:c{i}",
            document_id=document.id,
            order=i,
            spans=(BlockSpan(f"b{i}", 0, len(text)),),
            text=text,
        )
        for i, text in enumerate(parts)
    )
    return StoredDocument(document, blocks, chunks)


# ----------------------------------------------------------------------------- building


BULK_DOCUMENTS = 1_000  # documents per keyword commit and per vector append
STAGES = ("store", "keyword", "vectors", "graph")


def build(
    settings: Settings, size: int, texts: Sequence[str], indexes: SearchIndexes
) -> dict[str, list[float]]:
    """Fill the store, keyword index and vectors once (a marker file says it is done, and
    keeps each stage's [CPU s, wall s]), through the product's own write paths: the store
    a document at a time (``add`` does the same), the keyword index a commit per
    ``BULK_DOCUMENTS`` documents, the vectors appended as one matrix per as many documents
    (``VectorIndex.add_many``), and the graph built once at the end (as after an ingest)."""
    marker = settings.home / "built.json"
    if marker.is_file() and json.loads(marker.read_text())["size"] == size:
        _graph_ready(indexes)
        return dict(json.loads(marker.read_text()).get("stages", {}))
    stages = {stage: [0.0, 0.0] for stage in STAGES}
    vectors = indexes.vectors
    assert vectors is not None
    random = np.random.default_rng(7)
    batch: list[StoredDocument] = []
    for number, stored in enumerate(documents(texts, size), 1):
        batch.append(stored)
        if len(batch) >= BULK_DOCUMENTS:
            _write_batch(batch, indexes, vectors.index, random, stages)
            batch = []
            if number % (10 * BULK_DOCUMENTS) == 0:  # a long build says how far it is
                print(f"{number * CHUNKS_PER_DOCUMENT:,} chunks: {stages}", file=sys.stderr)
    if batch:
        _write_batch(batch, indexes, vectors.index, random, stages)
    with _stage(stages, "graph"):
        _graph_ready(indexes)
    marker.write_text(json.dumps({"size": size, "stages": stages}))
    print(f"built {size} chunks: {stages}", file=sys.stderr)
    return stages


def _write_batch(
    batch: Sequence[StoredDocument],
    indexes: SearchIndexes,
    vectors: VectorIndex,
    random: np.random.Generator,
    stages: dict[str, list[float]],
) -> None:
    with _stage(stages, "store"):
        for stored in batch:
            indexes.store.add_document(stored, content(stored))
    with _stage(stages, "keyword"):
        indexes.keyword.add_many([(s.document, s.chunks) for s in batch])
    with _stage(stages, "vectors"):
        vectors.add_many(
            [
                DocumentVectors.of(
                    s.document.id,
                    [c.id for c in s.chunks],
                    random.standard_normal((len(s.chunks), DIMENSION)).astype(np.float32),
                    None,
                    DIMENSION,
                )
                for s in batch
            ]
        )


@contextmanager
def _stage(stages: dict[str, list[float]], stage: str) -> Iterator[None]:
    """Add the CPU and wall seconds of the block to ``stages[stage]``."""
    started, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        stages[stage][0] += time.process_time() - cpu
        stages[stage][1] += time.perf_counter() - started


@contextmanager
def tokens_remembered() -> Iterator[None]:
    """The keyword index's tokenisers remember each text they have seen. Tokenising is
    pure and most of a bulk keyword build's CPU (~0.7 ms a chunk), and the benchmark's
    paragraphs repeat every ~7,800 chunks, so the index comes out the same at a fraction
    of the time; the rate without is what a build without ``--tokenise-once`` prints."""
    kept = keyword_schema.search_tokens, keyword_schema.search_grams
    keyword_schema.search_tokens, keyword_schema.search_grams = map(_remembered, kept)
    try:
        yield
    finally:
        keyword_schema.search_tokens, keyword_schema.search_grams = kept


def _remembered(function: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    seen: dict[str, tuple[str, ...]] = {}

    def call(text: str) -> list[str]:
        if text not in seen:
            seen[text] = tuple(function(text))
        return list(seen[text])  # a fresh list: a caller may change it

    return call


def _graph_ready(indexes: SearchIndexes) -> None:
    """The nearest-neighbour graph built (or loaded) before timing, as an ingest leaves it."""
    if indexes.vectors is not None:
        indexes.vectors.index.update_graph()


# ----------------------------------------------------------------------------- timing


def timed(search: Callable[[str], object], queries: Sequence[str]) -> list[tuple[float, float]]:
    """Wall and CPU milliseconds per call, ``REPEATS`` rounds over all queries (after one
    warm-up)."""
    for query in queries[:10]:
        search(query)
    runs: list[tuple[float, float]] = []
    for _ in range(REPEATS):
        for query in queries:
            started, cpu = time.perf_counter(), time.process_time()
            search(query)
            runs.append(
                ((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000)
            )
    return runs


def row(size: int, mode: str, runs: Sequence[float], cpus: Sequence[float] | None = None) -> Row:
    """p50/p95 of the wall milliseconds ``runs`` (and of the CPU ones, when given)."""
    cpus = cpus or [0.0, 0.0]
    return Row(
        size,
        mode,
        statistics.median(runs),
        statistics.quantiles(runs, n=20)[-1],
        len(runs),
        statistics.median(cpus),
        statistics.quantiles(cpus, n=20)[-1],
    )


def timed_row(size: int, mode: str, runs: Sequence[tuple[float, float]]) -> Row:
    return row(size, mode, [r[0] for r in runs], [r[1] for r in runs])


@dataclass(frozen=True)
class Built:
    """What building one size cost: each stage's [CPU s, wall s], the peak resident
    memory after the build and at the end of the searches, and the library on disk."""

    size: int
    stages: dict[str, list[float]]
    rss_built: int  # bytes
    rss_end: int
    disk: int


def measure(
    size: int,
    texts: Sequence[str],
    queries: Sequence[str],
    qv: dict,
    *,
    tokenise_once: bool = False,
) -> tuple[list[Row], Built]:
    base = load_settings()
    settings = replace(base, home=base.home / "latency" / str(size), embedder="local")
    store: Store = open_store(settings)
    indexes = SearchIndexes(settings, store, lambda: QueryVectors(qv))
    try:
        with tokens_remembered() if tokenise_once else contextlib.nullcontext():
            stages = build(settings, size, texts, indexes)
        rss_built = peak_rss()
        searcher = Searcher(store, indexes)
        rows = [
            timed_row(size, "hybrid", timed(lambda q: searcher.search(q, USER), queries)),
            timed_row(
                size,
                "keyword",
                timed(lambda q: searcher.search(q, USER, use_vectors=False), queries),
            ),
            timed_row(
                size,
                "vector",
                timed(lambda q: searcher.ranking(q, USER, use_keyword=False), queries),
            ),
            *_exact_rows(size, searcher, indexes, queries),
            *_engine_rows(size, indexes, queries, qv),
        ]
    finally:
        indexes.close()
        store.close()
    return rows, Built(size, stages, rss_built, peak_rss(), disk_bytes(settings.home))


def peak_rss() -> int:
    """This process's peak resident memory so far, in bytes (Linux counts kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def disk_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def build_lines(built: Sequence[Built]) -> str:
    """Per size: each build stage in CPU and wall seconds, peak memory, disk."""
    lines = []
    for b in built:
        stages = ", ".join(
            f"{stage} {cpu:,.0f} CPU s ({wall:,.0f} s wall)"
            for stage, (cpu, wall) in b.stages.items()
        )
        total = sum(cpu for cpu, _ in b.stages.values())
        lines.append(
            f"- {b.size:,} chunks built: {stages or 'reused'}; {total:,.0f} CPU s in all. "
            f"Peak RSS {b.rss_built / 1e6:,.0f} MB after the build, {b.rss_end / 1e6:,.0f} MB "
            f"after the searches; {b.disk / 1e6:,.0f} MB on disk\n"
        )
    return "".join(lines)


def _exact_rows(
    size: int, searcher: Searcher, indexes: SearchIndexes, queries: Sequence[str]
) -> list[Row]:
    """Hybrid and vector search again with the graph off: the exact scan, as before it."""
    if indexes.vectors is None:
        return []
    graph = indexes.vectors.index.graph
    graph.min_rows, kept = sys.maxsize, graph.min_rows
    try:
        hybrid = timed(lambda q: searcher.search(q, USER), queries)
        vector = timed(lambda q: searcher.ranking(q, USER, use_keyword=False), queries)
    finally:
        graph.min_rows = kept
    return [
        timed_row(size, "hybrid, exact scan", hybrid),
        timed_row(size, "vector, exact scan", vector),
    ]


def _engine_rows(
    size: int, indexes: SearchIndexes, queries: Sequence[str], qv: dict[str, np.ndarray]
) -> list[Row]:
    """The anchors: the engines alone, on the same queries. tantivy: one BM25 search of
    the query's terms with the permission filter (query built beforehand); the vector
    engine: what the route runs underneath at this size (usearch's search of 150 when the
    graph answers, else numpy's scan of every row and its top 150)."""
    keyword = indexes.keyword
    assert isinstance(keyword, KeywordIndex) and indexes.vectors is not None
    tantivy_searcher = keyword._searcher()
    built = {q: _raw_keyword_query(keyword, q) for q in queries}
    rows = indexes.vectors.index.snapshot()
    graph = indexes.vectors.index.graph._graph
    use_graph = graph is not None and rows.count >= indexes.vectors.index.graph.min_rows

    def vector(q: str) -> object:
        vec = qv[q] / np.linalg.norm(qv[q])
        if use_graph:
            return graph.search(vec, 150, threads=1)
        return top_k(np.einsum("ij,j->i", rows.matrix, vec), 150)

    name = "usearch raw (150)" if use_graph else "numpy exact scan (150)"
    return [
        timed_row(size, "tantivy raw (BM25 + permission filter)",
                  timed(lambda q: tantivy_searcher.search(built[q], 150), queries)),
        timed_row(size, name, timed(vector, queries)),
    ]  # fmt: skip


def _raw_keyword_query(keyword: KeywordIndex, query: str) -> object:
    schema = keyword._schema
    filtered = document_filters(schema, USER, None)
    return tantivy.Query.boolean_query(
        [(tantivy.Occur.Must, text_query(schema, search_tokens(query), search_grams(query))),
         *((tantivy.Occur.Must, unscored(f)) for f in filtered)]
    )  # fmt: skip


def overheads(rows: Sequence[Row]) -> str:
    """Per size: the routes' own CPU work (hybrid p50 less the two anchors' p50) against
    the engines' (the anchors'), the issue's goal being at most 2x at 10k."""
    lines = []
    for size in dict.fromkeys(r.size for r in rows):
        sized = [r for r in rows if r.size == size]
        hybrid, engines = sized[0].cpu_p50, sum(r.cpu_p50 for r in sized[-2:])
        own = hybrid - engines
        lines.append(
            f"- {size:,} chunks: hybrid {hybrid:.1f} CPU ms, engines {engines:.1f}, the routes' "
            f"own work {own:.1f} = {own / engines:.1f}x the engines'\n"
        )
    return "".join(lines)


def query_vectors(queries: Sequence[str]) -> tuple[dict[str, np.ndarray], list[float]]:
    embedder = make_embedder(load_settings())
    assert embedder is not None, "ASKALONG_EMBEDDER=none: no query vectors"
    vectors, times = {}, []
    for query in queries:
        started = time.perf_counter()
        vectors[query] = embedder.embed_query(query)
        times.append((time.perf_counter() - started) * 1000)
    return vectors, times


def table(rows: Sequence[Row]) -> str:
    cells = [
        (f"{r.size:,}", r.mode, f"{r.cpu_p50:.1f}", f"{r.cpu_p95:.1f}", f"{r.p50:.1f}",
         f"{r.p95:.1f}", f"{r.runs}")
        for r in rows
    ]  # fmt: skip
    header = ("chunks", "mode", "p50 CPU ms", "p95 CPU ms", "p50 ms", "p95 ms", "runs")
    return markdown_table(header, "rlrrrrr", cells)


def sized_arguments(
    doc: str, queries: int, argv: Sequence[str] | None, *, cache: Path | None = None
) -> argparse.Namespace:
    """``--sizes`` (chunks), ``--queries`` and ``--out``: what the search benchmarks take;
    ``--cache`` too when a default folder for built libraries is given."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=queries)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--tokenise-once",
        action="store_true",
        help="while building, tokenise each distinct text once (the same index, built "
        "faster: the paragraphs repeat; for 1M chunks)",
    )
    if cache is not None:
        parser.add_argument("--cache", type=Path, default=cache, help="built libraries")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = sized_arguments(__doc__, 200, argv)
    load_start = os.getloadavg()[0]
    texts = paragraphs()
    queries = questions(args.queries)
    qv, embed_ms = query_vectors(queries)
    measured = [
        measure(size, texts, queries, qv, tokenise_once=args.tokenise_once) for size in args.sizes
    ]
    rows = [r for size_rows, _ in measured for r in size_rows]
    today = datetime.date.today().isoformat()
    text = (
        f"# Search latency, {today}\n\n"
        f"{len(queries)} real questions (XQuAD en/zh, CMRC) x {REPEATS} rounds over "
        f"{len(texts):,} real paragraphs repeated to size; random unit chunk vectors "
        f"(dimension {DIMENSION}), real query vectors computed beforehand; "
        f"a signed-in user, so the permission filter runs. Load average at the start "
        f"{load_start:.1f}, at the end {os.getloadavg()[0]:.1f}, on {os.cpu_count()} cores. "
        "The last two rows per size are the anchors: the engines alone on the same queries; "
        "the routes' own work is hybrid minus the two.\n\n"
        + table(rows)
        + "\n"
        + overheads(rows)
        + "\n"
        + build_lines([b for _, b in measured])
        + f"\nEmbedding one query with the default embedder (not in the figures above): "
        f"p50 {statistics.median(embed_ms):.1f} ms, "
        f"p95 {statistics.quantiles(embed_ms, n=20)[-1]:.1f} ms.\n"
    )
    write_results(text, f"search-latency-{today}.md", args.out)


if __name__ == "__main__":
    main()
