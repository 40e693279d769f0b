"""``PostgresRoutes`` kept in step with a PostgreSQL store as the local ``SearchIndexes``
are with theirs: ``sync`` indexes what the routes lack and drops what the store lost,
pending vectors are found and embedded, an identical text is never embedded twice (its
stored vector reused, by any process), a document held by one embedder is skipped by
another, a keyword batch commits once at its end, and the doctor finds and repairs
what the routes lack or hold in excess. The ``Library`` picks these routes
for a PostgreSQL store unless ``search_routes`` says "embedded"."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from hash_embedder import HashEmbedder
from tests.contract.test_keyword_index import make_chunks, make_document

from askalong.config import Settings
from askalong.index.pg_routes import PostgresRoutes
from askalong.index.sync import SearchIndexes
from askalong.library import Library
from askalong.maintain.checks import examine, stored_documents
from askalong.maintain.parts import Parts
from askalong.maintain.repair import repair
from askalong.store.postgres.store import PostgresStore
from askalong.types import Access, Document, StoredDocument
from conftest import settings_for


@pytest.fixture
def server(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    return settings_for("postgres", settings, request)


@pytest.fixture
def embedder() -> HashEmbedder:
    return HashEmbedder()


@contextmanager
def opened_routes(
    server: Settings, embedder: HashEmbedder, pgvector: bool | None
) -> Iterator[PostgresRoutes]:
    with Library(dataclasses.replace(server, embedder="none")) as library:
        store = library.store
        assert isinstance(store, PostgresStore)
        with PostgresRoutes(store.pool, store, lambda: embedder, pgvector=pgvector) as opened:
            yield opened


@pytest.fixture(params=["pgvector", "plain"])
def routes(
    server: Settings, embedder: HashEmbedder, request: pytest.FixtureRequest
) -> Iterator[PostgresRoutes]:
    """The routes over the library's store, with pgvector or without (vectors as bytes)."""
    with opened_routes(server, embedder, None if request.param == "pgvector" else False) as found:
        yield found


@pytest.fixture
def chosen_routes(server: Settings, embedder: HashEmbedder) -> Iterator[PostgresRoutes]:
    """The routes as the library and the doctor open them (pgvector where the server has it)."""
    with opened_routes(server, embedder, None) as found:
        yield found


def stored(routes: PostgresRoutes, doc_id: str, *texts: str) -> StoredDocument:
    """A document written to the store (not indexed)."""
    original = f"original {doc_id}".encode()
    document = replace(make_document(doc_id), content_hash=hashlib.sha256(original).hexdigest())
    item = StoredDocument(document, (), tuple(make_chunks(doc_id, *texts)))
    routes.store.add_document(item, original)
    return item


def test_the_library_of_a_postgresql_store_searches_its_database(server: Settings) -> None:
    with Library(dataclasses.replace(server, embedder="none")) as library:
        assert isinstance(library.indexes, PostgresRoutes)
    assert not (server.home / "index").exists()  # nothing of the search in the home
    with Library(dataclasses.replace(server, search_routes="embedded")) as library:
        assert isinstance(library.indexes, SearchIndexes)


def test_sync_indexes_what_the_routes_lack_and_drops_what_the_store_lost(
    routes: PostgresRoutes,
) -> None:
    stored(routes, "kept", "the pump feeds the valve")
    routes.add(make_document("gone"), make_chunks("gone", "an orphan passage"))
    assert routes.sync() == 1
    assert routes.keyword.document_ids() == {"kept"}
    found = routes.keyword.search("pump", Access.local())
    assert [hit.document_id for hit in found] == ["kept"]


def test_pending_vectors_are_embedded_and_identical_texts_reuse_stored_vectors(
    routes: PostgresRoutes, embedder: HashEmbedder
) -> None:
    first = stored(routes, "first", "alpha passage", "beta passage")
    second = stored(routes, "second", "beta passage", "gamma passage")
    routes.sync()
    assert {d.id for d in routes.pending_vectors()} == {"first", "second"}
    report = routes.embed([first.document])
    assert (report.documents, report.chunks, report.reused) == (1, 2, 0)
    report = routes.embed_pending()
    assert (report.documents, report.chunks, report.reused) == (1, 2, 1)
    assert embedder.embedded == 3  # "beta passage" once
    assert routes.pending_vectors() == []
    # Written afresh (a job run again): its old vectors set aside, reused, not embedded.
    routes.add(second.document, second.chunks)
    assert {d.id for d in routes.pending_vectors()} == {"second"}
    assert routes.embed_pending().reused == 2
    assert embedder.embedded == 3


def test_a_document_held_by_one_embedder_is_skipped_by_another(routes: PostgresRoutes) -> None:
    item = stored(routes, "held", "a passage to embed")
    routes.sync()
    vectors = routes.vectors
    assert vectors is not None
    with vectors.claim_document("held") as ours:
        assert ours
        outcome: list[int] = []
        elsewhere = threading.Thread(
            target=lambda: outcome.append(routes.embed([item.document]).chunks)
        )
        elsewhere.start()
        elsewhere.join()
        assert outcome == [0]  # another connection, as another machine: skipped
    assert routes.embed([item.document]).chunks == 1


def test_a_keyword_batch_commits_once_at_its_end(routes: PostgresRoutes) -> None:
    with routes.keyword.batch():
        for n in range(3):
            routes.keyword.add(make_document(f"d{n}"), make_chunks(f"d{n}", f"note {n} pump"))
        assert routes.keyword.document_ids() == set()  # waiting for the commit
    assert routes.keyword.document_ids() == {"d0", "d1", "d2"}
    with routes.keyword.batch():
        routes.keyword.delete("d1")
        routes.keyword.flush()
        assert routes.keyword.document_ids() == {"d0", "d2"}


def test_removing_a_document_drops_its_rows_and_vectors(routes: PostgresRoutes) -> None:
    item = stored(routes, "doomed", "a passage that goes")
    routes.sync()
    assert routes.embed([item.document]).chunks == 1
    routes.remove("doomed")
    assert routes.keyword.document_ids() == set()
    assert routes.vector_documents() == set()


def test_the_doctor_finds_and_repairs_what_the_postgresql_routes_lack(
    chosen_routes: PostgresRoutes, server: Settings, embedder: HashEmbedder
) -> None:
    routes = chosen_routes
    unindexed = stored(routes, "unindexed", "a passage the keyword rows lack")
    stored(routes, "unembedded", "a passage without vectors")
    routes.sync()
    assert routes.embed([unindexed.document]).chunks == 1
    routes.keyword.delete("unindexed")
    routes.add(make_document("ghost"), make_chunks("ghost", "a passage of no document"))
    vectors = routes.vectors
    assert vectors is not None
    vectors.add("ghost", ["ghost:0"], embedder.embed_passages(["a passage of no document"]))
    with Parts.open(server, lambda: embedder) as parts:
        stored_now = list(stored_documents(parts))
        found = [(f.kind, f.subject) for f in examine(parts, stored_now)]
        assert set(found) == {
            ("keyword_missing", "unindexed"),
            ("keyword_orphan", "ghost"),
            ("vectors_missing", "unembedded"),
            ("vectors_orphan", "ghost"),
        }
        repair(parts, examine(parts, stored_now), stored_now)
        assert examine(parts, list(stored_documents(parts))) == []
    assert not (server.home / "index").exists()
    found = routes.keyword.search("passage", Access.local())
    assert {hit.document_id for hit in found} == {"unindexed", "unembedded"}


def test_sync_keeps_what_another_machine_adds_while_it_runs(
    routes: PostgresRoutes, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored(routes, "early", "a passage stored before the sync")
    listed = routes.store.list_documents

    def listing_then_a_worker_elsewhere_adds(access: Access) -> list[Document]:
        found = listed(access)
        late = stored(routes, "late", "a passage a worker elsewhere adds")
        routes.add(late.document, late.chunks)  # stored first, then indexed, as ingestion does
        return found

    monkeypatch.setattr(routes.store, "list_documents", listing_then_a_worker_elsewhere_adds)
    routes.sync()
    assert routes.keyword.document_ids() == {"early", "late"}
