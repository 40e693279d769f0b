"""The PostgreSQL vector route, with pgvector (HNSW) and without it (exact over bytes):
cosine order, the permission and document restriction inside the scan, replacement,
deletion, and recall@10 of filtered ANN searches against exact ones for three tenants.
Who sees what is the shared permission matrix's (``test_permissions.py``)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hash_embedder import HashEmbedder
from pg_cluster import pg_pool
from psycopg import sql
from tests.contract.test_keyword_index import make_chunks, make_document

from askalong.config import Settings
from askalong.errors import StoreError
from askalong.index.embedding import EmbedReport
from askalong.index.pg_keyword import PostgresKeywordRoute
from askalong.index.pg_routes import PostgresRoutes
from askalong.index.pg_schema import Pool
from askalong.index.pg_vector import MAX_EF_SEARCH, OVERSAMPLE, PostgresVectorRoute, ef_search
from askalong.store.backends import open_store
from askalong.types import Access, StoredDocument

# PostgreSQL only: make test runs it, make check (SQLite's contract) leaves it out.
pytestmark = pytest.mark.slow

DIMENSION = 16


@pytest.fixture(scope="module")
def pool(request: pytest.FixtureRequest) -> Iterator[Pool]:
    with pg_pool(request.getfixturevalue("pg_url")) as opened:
        yield opened


@pytest.fixture(params=["pgvector", "plain"])
def route(request: pytest.FixtureRequest, pool: Pool) -> Iterator[PostgresVectorRoute]:
    """An empty route over an empty keyword route (each test a space of its own)."""
    with pool.connection() as connection:
        connection.execute("DROP TABLE IF EXISTS keyword_documents, keyword_chunks CASCADE")
        connection.execute("DROP TABLE IF EXISTS keyword_postings, keyword_totals CASCADE")
    keyword = PostgresKeywordRoute(pool)
    space = f"{request.node.name}"
    yield PostgresVectorRoute(
        pool, keyword, space, DIMENSION, pgvector=None if request.param == "pgvector" else False
    )


def stored(
    route: PostgresVectorRoute, doc_id: str, vectors: np.ndarray, owner: str = "local"
) -> list[str]:
    """Index ``doc_id`` (one chunk per vector) in both routes; its chunk ids."""
    chunks = make_chunks(doc_id, *(f"text {n}" for n in range(len(vectors))))
    keyword = route._keyword
    assert isinstance(keyword, PostgresKeywordRoute)
    keyword.add(replace(make_document(doc_id, owner=owner)), chunks)
    ids = [chunk.id for chunk in chunks]
    route.add(doc_id, ids, vectors)
    return ids


def rng_vectors(seed: int, count: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((count, DIMENSION)).astype(np.float32)


def test_pgvector_is_used_where_the_server_has_it(route: PostgresVectorRoute) -> None:
    plain = "plain" in route._table.as_string()
    assert (route.version is None) == plain
    assert plain or route.version >= (0, 6)  # type: ignore[operator]


def test_search_equals_exact_cosine(route: PostgresVectorRoute) -> None:
    vectors = rng_vectors(1, 40)
    ids = stored(route, "a", vectors[:20]) + stored(route, "b", vectors[20:])
    query = rng_vectors(2, 1)[0]
    scope = route.scope(Access.local())
    hits = route.search(query, scope, limit=10)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    cosine = unit @ (query / np.linalg.norm(query))
    expected = [ids[i] for i in np.argsort(-cosine)[:10]]
    assert [hit.chunk_id for hit in hits] == expected
    assert [hit.vector_rank for hit in hits] == list(range(1, 11))
    for hit in hits:
        assert hit.score == pytest.approx(cosine[ids.index(hit.chunk_id)], abs=1e-5)
        assert hit.mode == "vector" and hit.vector_score == hit.score


def test_a_hidden_best_match_does_not_take_the_slot(route: PostgresVectorRoute) -> None:
    query = np.eye(DIMENSION, dtype=np.float32)[0]
    stored(route, "hidden", query[None, :], owner="bob")
    stored(route, "open", (query + 0.5)[None, :], owner="alice")
    assert route.search(query, route.scope(Access.local()), limit=1)[0].document_id == "hidden"
    [hit] = route.search(query, route.scope(Access(user="alice")), limit=1)
    assert (hit.document_id, hit.vector_rank) == ("open", 1)
    named = route.scope(Access.local(), ["open"])
    assert [h.document_id for h in route.search(query, named, limit=5)] == ["open"]


def test_scope_splits_by_vectors(route: PostgresVectorRoute) -> None:
    stored(route, "a", rng_vectors(3, 2))
    keyword = route._keyword
    assert isinstance(keyword, PostgresKeywordRoute)
    keyword.add(make_document("b"), make_chunks("b", "no vectors yet"))
    scope = route.scope(Access.local())
    assert (scope.ready, scope.pending) == ({"a"}, {"b"})
    assert route.search(rng_vectors(4, 1)[0], route.scope(Access.local(), ["b"])) == []


def test_re_add_replaces_and_delete_removes(route: PostgresVectorRoute) -> None:
    stored(route, "a", rng_vectors(5, 3))
    route.add("a", ["a:9"], rng_vectors(6, 1))
    scope = route.scope(Access.local())
    assert [hit.chunk_id for hit in route.search(rng_vectors(7, 1)[0], scope)] == ["a:9"]
    assert route.document_ids() == {"a"}
    route.delete("a")
    route.delete("never-added")
    assert route.document_ids() == set()
    assert route.search(rng_vectors(7, 1)[0], scope) == []


def test_dimension_is_checked(route: PostgresVectorRoute) -> None:
    with pytest.raises(ValueError, match="dimension"):
        route.add("a", ["a:0"], np.ones((1, DIMENSION + 1), dtype=np.float32))


def test_ef_search_widens_by_the_visible_share() -> None:
    assert ef_search(10, 1000, 1000, iterative=False) == 40  # unfiltered: pgvector's default
    assert ef_search(10, 1000, 4000, iterative=False) == 10 * OVERSAMPLE * 4
    assert ef_search(100, 1000, 3000, iterative=True) == 100  # the scan iterates instead
    assert ef_search(100, 1000, 3000, iterative=False) is None  # past the maximum: exact
    assert ef_search(MAX_EF_SEARCH, 1, 1, iterative=False) == MAX_EF_SEARCH


def test_filtered_ann_keeps_recall_of_exact(pool: Pool) -> None:
    """5,000 random vectors of three tenants (a third each, 50 documents each); for each
    tenant 40 queries, the filtered HNSW top-10 against the exact filtered top-10."""
    keyword = PostgresKeywordRoute(pool)
    route = PostgresVectorRoute(pool, keyword, "recall", DIMENSION)
    assert route.version is not None
    vectors = rng_vectors(11, 5000)
    owners: list[str] = []
    for d, rows in enumerate(np.array_split(np.arange(5000), 150)):
        owner = f"tenant{d % 3}"
        chunks = make_chunks(f"r{d}", *(f"v{i}" for i in rows))
        keyword.add(make_document(f"r{d}", owner=owner), chunks)
        route.add(f"r{d}", [c.id for c in chunks], vectors[rows])
        owners += [owner] * len(rows)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    recalls = []
    for t in range(3):
        mine = np.flatnonzero(np.array(owners) == f"tenant{t}")
        scope = route.scope(Access(user=f"tenant{t}"))
        for query in rng_vectors(100 + t, 40):
            exact = set(mine[np.argsort(-(unit[mine] @ query))[:10]])
            found = route.search(query, scope, limit=10)
            got = {int(hit.chunk_id.split(":")[1]) + _first_row(hit.document_id) for hit in found}
            recalls.append(len(exact & got) / 10)
    assert np.mean(recalls) >= 0.98, np.mean(recalls)


def _first_row(document_id: str) -> int:
    """The row of a recall document's first vector (``np.array_split`` of 5,000 in 150)."""
    d = int(document_id[1:])
    return d * 33 + min(d, 5000 - 150 * 33)


def test_a_failure_in_postgresql_is_a_store_error(request: pytest.FixtureRequest) -> None:
    """A table gone from under the routes (or any server-side failure) raises the domain
    error the local routes raise, not psycopg's."""
    with pg_pool(request.getfixturevalue("pg_url")) as own:
        keyword = PostgresKeywordRoute(own)
        route = PostgresVectorRoute(own, keyword, "failing", DIMENSION)
        keyword.add(make_document("a"), make_chunks("a", "zebra"))
        route.add("a", ["a:0"], rng_vectors(8, 1))
        scope = route.scope(Access.local())
        with own.connection() as connection:
            connection.execute("DROP TABLE keyword_postings")
            connection.execute(sql.SQL("DROP TABLE {}").format(route._table))
        with pytest.raises(StoreError, match="search routes on PostgreSQL"):
            keyword.search("zebra", Access.local())
        with pytest.raises(StoreError, match="search routes on PostgreSQL"):
            route.search(rng_vectors(9, 1)[0], scope)


def test_routes_keep_in_step_with_the_store(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """``PostgresRoutes``: a re-added document loses the vectors of its earlier copy (it
    is pending until embedded again), a removed one leaves both routes."""
    settings = Settings(home=tmp_path)
    with (
        open_store(settings) as store,
        pg_pool(request.getfixturevalue("pg_url")) as own,
        PostgresRoutes(own, store, lambda: HashEmbedder(DIMENSION)) as routes,
    ):
        document = replace(make_document("a"), content_hash=hashlib.sha256(b"a").hexdigest())
        item = StoredDocument(document, (), tuple(make_chunks("a", "zebra", "lion")))
        store.add_document(item, b"a")
        routes.add(item.document, item.chunks)
        assert routes.embed([item.document]) == EmbedReport(1, 2)
        assert routes.vectors is not None and routes.vectors.document_ids() == {"a"}
        routes.add(item.document, item.chunks)
        assert routes.vectors.scope(Access.local()).pending == {"a"}
        routes.remove("a")
        assert routes.keyword.document_ids() == set() == routes.vectors.document_ids()


def test_keyword_statistics_follow_deletes_and_re_adds(request: pytest.FixtureRequest) -> None:
    """The stored df and totals follow every write: after deleting and re-adding, the
    scores equal those of a route that only ever held what is left (tantivy counts a
    deleted entry until it merges its segments; this route never does)."""
    texts = {"a": "zebra stripes", "b": "zebra herd zebra", "c": "lion pride", "d": "zebra"}
    url = request.getfixturevalue("pg_url")
    with pg_pool(url) as churned, pg_pool(url) as fresh:
        route, clean = PostgresKeywordRoute(churned), PostgresKeywordRoute(fresh)
        for name, text in texts.items():
            route.add(make_document(name), make_chunks(name, text))
        route.delete("d")
        route.add(make_document("b"), make_chunks("b", "zebra herd"))
        for name, text in {**texts, "b": "zebra herd"}.items():
            if name != "d":
                clean.add(make_document(name), make_chunks(name, text))
        for query in ("zebra", "zebra herd lion"):
            got = [(h.chunk_id, h.score) for h in route.search(query, Access.local())]
            want = [(h.chunk_id, h.score) for h in clean.search(query, Access.local())]
            assert [c for c, _ in got] == [c for c, _ in want]
            assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-9)
