"""Asking and searching one collection: the whole PostgreSQL manual (1,169 documents) as one
collection, beside other documents outside it (the gnuplot manual and the English papers).

A collection is resolved at the edge to the ids of its members the caller may see, and the
search routes filter by those ids (a tantivy term set over ``document_id``; the vector
route's scope checks each id). The other way would be a collection field in the keyword
index, filtered by one term: its cost is that of the unfiltered search plus one posting
list, so "whole library" below is what that way would cost at best. Timed per query, in
rounds (the machine is shared: medians over repeated runs are what to compare):

- resolve: ``Library.collection`` (the members as documents, which a ``Question`` holds)
  and ``Library.collection_ids`` (their ids, all a search filter needs)
- search, whole library / collection: ``Searcher.search`` keyword route (no embedder);
  the keyword route alone, with and without the id filter
- vector scope: ``KeywordIndex.document_ids(access, among=ids)``, the step the vector
  route adds per search when ids are named; "before" checks each id, as it did for any
  number of ids before ``CHECKED_ONE_BY_ONE``
- ask, whole library / collection: the offline answerer through ``Asker.ask``

The library is built once under ``$ASKALONG_HOME/collection-bench/`` and reused.

    python benchmarks/collection_search.py [--repeats 5]
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

from askalong.asking.choose import make_asker
from askalong.asking.question import Question
from askalong.config import load_settings
from askalong.index.keyword import KeywordIndex
from askalong.ingest.inputs import expand_inputs, folder_name
from askalong.library import Library
from askalong.types import Access
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
MANUAL = EVALDATA / "manuals" / "postgresql-15-html"
OUTSIDE = (EVALDATA / "manuals" / "gnuplot-5.4.pdf", EVALDATA / "pdf" / "en_2col")
USER = Access(user="local")  # the owner, signed in: the permission filter runs
QUERIES = (
    "can two transactions running at once see each other's uncommitted changes",
    "serializable isolation level",
    "how to create an index concurrently",
    "vacuum full locks the table",
    "what does ON COMMIT DROP do",
    "set the default text search configuration",
    "foreign key on delete cascade",
    "window functions over partition",
    "write ahead log checkpoints",
    "replication slots on the standby",
    "how large can a field value be",
    "row level security policy",
    "copy data from a csv file",
    "explain analyze buffers",
    "role membership and inheritance",
    "json path expressions",
    "autovacuum cost limit",
    "savepoint and rollback to savepoint",
    "partitioned table attach partition",
    "timezone of timestamp with time zone",
)


def build(library: Library) -> str:
    """The manual as one collection (named after its folder) and the outside documents."""
    name = folder_name(str(MANUAL))
    assert name is not None
    if any(c.name == name for c in library.store.list_collections(USER)):
        return name
    access = Access.local()
    for path in OUTSIDE:
        for item in expand_inputs([str(path)]):
            assert isinstance(item, str)
            library.ingestor.add(item, access)
    items = [item for item in expand_inputs([str(MANUAL)]) if isinstance(item, str)]
    outcomes = [library.ingestor.add(item, access) for item in items]
    ids = [o.document.id for o in outcomes if o.document is not None]
    library.store.add_to_collection(name, ids, access)
    return name


def timed(run: Callable[[str], object], queries: Sequence[str], repeats: int) -> list[float]:
    runs = []
    for _ in range(repeats):
        for query in queries:
            started = time.perf_counter()
            run(query)
            runs.append((time.perf_counter() - started) * 1000)
    return runs


def measure(library: Library, name: str, repeats: int) -> list[tuple[str, list[float]]]:
    searcher, keyword = library.searcher, library.indexes.keyword
    asker = make_asker(library)
    ids = library.collection_ids(name, USER)
    fewer = max(1, repeats // 2)

    def in_collection(query: str) -> object:
        found = library.collection_ids(name, USER)
        return searcher.search(query, USER, documents=found, use_vectors=False)

    def ask_collection(query: str) -> object:
        found = tuple(library.collection(name, USER)[1])
        return asker.ask(Question(query, documents=found), USER)

    def whole(query: str) -> object:
        return searcher.search(query, USER, use_vectors=False)

    def scope(query: str) -> object:
        return keyword.document_ids(USER, among=ids)

    def documents(query: str) -> object:
        return library.collection(name, USER)

    def only_ids(query: str) -> object:
        return library.collection_ids(name, USER)

    def route(query: str) -> object:
        return keyword.search(query, USER)

    def route_ids(query: str) -> object:
        return keyword.search(query, USER, documents=ids)

    def ask_whole(query: str) -> object:
        return asker.ask(Question(query), USER)

    timed(whole, QUERIES, 1)  # warm-up: caches, the index's first reload
    return [
        ("search, whole library", timed(whole, QUERIES, repeats)),
        ("resolve the collection: its documents (ask)", timed(documents, QUERIES, repeats)),
        ("resolve the collection: its ids (search)", timed(only_ids, QUERIES, repeats)),
        ("search, collection (resolve ids + id filter)", timed(in_collection, QUERIES, repeats)),
        ("keyword route alone, whole library", timed(route, QUERIES, repeats)),
        ("keyword route alone, 1,169-id filter", timed(route_ids, QUERIES, repeats)),
        ("vector scope, collection ids (listed, intersected)", timed(scope, QUERIES, repeats)),
        (
            "vector scope, one check per id (before)",
            timed(lambda q: one_by_one(keyword, ids), QUERIES, 1),
        ),
        ("ask, whole library", timed(ask_whole, QUERIES, fewer)),
        ("ask, collection", timed(ask_collection, QUERIES, fewer)),
    ]


def one_by_one(keyword: KeywordIndex, ids: Sequence[str]) -> set[str]:
    """The scope as it was computed before ``CHECKED_ONE_BY_ONE``: one check per id."""
    searcher = keyword._searcher()
    visible = keyword._visible_query(USER)
    return {ref for ref in ids if keyword._holds(searcher, visible, ref)}


def table(rows: Sequence[tuple[str, list[float]]], baseline: float) -> str:
    lines = [
        "| what | runs | p50 ms | p95 ms | p50 / whole-library search |",
        "|---|---:|---:|---:|---:|",
    ]
    for what, runs in rows:
        p50 = statistics.median(runs)
        p95 = statistics.quantiles(runs, n=20)[-1] if len(runs) > 1 else runs[0]
        lines.append(f"| {what} | {len(runs)} | {p50:.1f} | {p95:.1f} | {p50 / baseline:.2f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ["ASKALONG_EMBEDDER"] = "none"  # keyword route: the filter is what is timed
    base = load_settings()
    settings = load_settings(home=base.home / "collection-bench")
    with Library(settings) as library:
        started = time.perf_counter()
        name = build(library)
        built = time.perf_counter() - started
        collection = library.store.get_collection(name, USER)
        total = len(library.store.list_documents(USER))
        rows = measure(library, name, args.repeats)
    baseline = statistics.median(rows[0][1])
    print(
        f"Collection `{name}`: {collection.documents} documents, {collection.chunks} chunks, in a"
        f" library of {total} documents (built or opened in {built:.1f} s);"
        f" {len(QUERIES)} queries x {args.repeats} rounds, {datetime.date.today()},"
        f" Python {sys.version.split()[0]}, {os.cpu_count()} cores.\n"
    )
    print(table(rows, baseline))


if __name__ == "__main__":
    main()
