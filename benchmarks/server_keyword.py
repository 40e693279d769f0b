"""The PostgreSQL keyword route's ranking against the embedded tantivy route's, one run.

Each collection (XQuAD en/zh, CMRC 2018 dev, DRCD dev) is loaded by the evaluation
harness of ``askalong eval retrieval`` into its library under ``$ASKALONG_HOME/eval/``
(the product's chunks; built once, reused); its keyword mode is scored there (tantivy),
then the library's documents and chunks are indexed into ``PostgresKeywordRoute`` and the
same questions are scored through the same ``Searcher`` over the PostgreSQL route. A
throwaway PostgreSQL cluster (the ``pgserver`` wheel) is started unless ``--database``
names one (its search tables are emptied first).

    python benchmarks/server_keyword.py [--limit N] [--database postgresql://...]
"""

from __future__ import annotations

import argparse
import datetime
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from psycopg_pool import ConnectionPool

from _table import markdown_table, write_results
from askalong.config import load_settings
from askalong.evaluate.datasets import RetrievalCorpus, load_dataset
from askalong.evaluate.harness import chunk_units, corpus_settings, evaluate_mode, load_corpus
from askalong.evaluate.retrieval import RetrievalReport
from askalong.index.pg_keyword import PostgresKeywordRoute
from askalong.index.pg_schema import Pool
from askalong.library import Library
from askalong.providers.base import Embedder
from askalong.retrieve.search import Searcher
from askalong.types import Access
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
DATASETS = (
    "qa/xquad/xquad.en.json",
    "qa/xquad/xquad.zh.json",
    "qa/cmrc2018/cmrc2018_dev.json",
    "qa/drcd/DRCD_dev.json",
)
SEARCH_TABLES = "keyword_documents, keyword_chunks, keyword_postings, keyword_totals"


@dataclass(frozen=True)
class KeywordOnly:
    """The ``SearchRoutes`` of a keyword route alone."""

    keyword: PostgresKeywordRoute
    vectors: None = None
    embedder: Embedder | None = None


@contextmanager
def database(url: str | None) -> Iterator[Pool]:
    """A pool on ``url``, or on a throwaway cluster started for this run."""
    import pgserver  # the benchmark's own dependency, as in the tests

    with tempfile.TemporaryDirectory(prefix="askalong-pg-") as folder:
        server = None if url else pgserver.get_server(folder, cleanup_mode="delete")
        try:
            conninfo = url or server.get_uri()  # type: ignore[union-attr]
            autocommit = {"autocommit": True}  # as the store's pool hands out
            with ConnectionPool(
                conninfo, kwargs=autocommit, min_size=1, max_size=2, open=True
            ) as pool:
                yield pool
        finally:
            if server is not None:
                server.cleanup()


def compare(corpus: RetrievalCorpus, pool: Pool, limit: int | None) -> list[RetrievalReport]:
    """The corpus's keyword mode on tantivy, then on PostgreSQL, over the same chunks."""
    settings = corpus_settings(load_settings(), corpus)
    queries = corpus.queries[:limit] if limit else corpus.queries
    subset = replace(corpus, queries=queries)
    with Library(settings) as library:
        load_corpus(library, corpus, None)
        units = chunk_units(library)
        embedded = evaluate_mode(library.searcher, subset, "keyword", units, None)
        with pool.connection() as connection:
            connection.execute(f"DROP TABLE IF EXISTS {SEARCH_TABLES}")
        route = PostgresKeywordRoute(pool)
        stored = library.store.list_documents(Access.local())
        route.add_many((document, library.store.chunks(document.id)) for document in stored)
        searcher = Searcher(library.store, KeywordOnly(route), reranker=library.searcher.reranker)
        server = evaluate_mode(searcher, subset, "keyword", units, None)
    return [embedded, server]


def table(pairs: Sequence[tuple[RetrievalReport, RetrievalReport]]) -> str:
    header = ("dataset", "questions", "R@1 tantivy", "R@1 PostgreSQL", "difference")
    header += ("R@5 tantivy", "R@5 PostgreSQL", "MRR@10 tantivy", "MRR@10 PostgreSQL")
    header += ("q/s tantivy", "q/s PostgreSQL")
    return markdown_table(header, "lrrrrrrrrrr", [_cells(a, b) for a, b in pairs])


def _cells(embedded: RetrievalReport, server: RetrievalReport) -> tuple[str, ...]:
    def figure(value: float | None) -> str:
        return "—" if value is None else f"{value:.3f}"

    gap = (server.recall1 or 0.0) - (embedded.recall1 or 0.0)
    return (
        embedded.dataset,
        str(embedded.queries),
        figure(embedded.recall1),
        figure(server.recall1),
        f"{gap:+.3f}",
        figure(embedded.recall5),
        figure(server.recall5),
        figure(embedded.mrr10),
        figure(server.mrr10),
        f"{embedded.queries_per_second:.1f}",
        f"{server.queries_per_second:.1f}",
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="score the first N questions")
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a new one)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    pairs = []
    with database(args.database) as pool:
        for name in DATASETS:
            embedded, server = compare(load_dataset(EVALDATA / name), pool, args.limit)
            pairs.append((embedded, server))
            print(table(pairs[-1:]), flush=True)
    today = datetime.date.today().isoformat()
    text = (
        f"# Keyword route: PostgreSQL vs tantivy, {today}\n\n"
        "`python benchmarks/server_keyword.py`: the keyword mode of `askalong eval "
        "retrieval` (the product's chunks, the same `Searcher`) on the embedded tantivy "
        "route and on the PostgreSQL route (BM25 scored in SQL over term rows of the same "
        "tokens), one run, PostgreSQL 16 from the `pgserver` wheel on this machine "
        f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end).\n\n"
        + table(pairs)
    )
    write_results(text, f"server-keyword-{today}.md", args.out)


if __name__ == "__main__":
    main()
