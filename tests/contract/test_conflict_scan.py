"""The contradiction scan over every place vectors live: the home's files, PostgreSQL with
pgvector, PostgreSQL without it (vectors as bytes). Each finds the near chunks of other
documents only, skips chunks without vectors and vectors set aside, and records a planted
contradiction; in server mode the ``Library`` scans each document it embeds, and
``askalong conflicts`` lists the pair."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator

import numpy as np
import pytest
from click.testing import CliRunner
from tests.contract.test_keyword_index import make_chunks, make_document

from askalong.cli import main
from askalong.config import Settings
from askalong.index.choose import scan_neighbours
from askalong.index.neighbours import Neighbours
from askalong.index.pg_routes import PostgresRoutes
from askalong.index.routes import StoreIndexes
from askalong.index.sync import SearchIndexes
from askalong.library import Library
from askalong.maintain.conflict_scan import MIN_COSINE, NEIGHBOURS, ConflictScanner
from askalong.providers.base import Embedder, EmbedKind
from askalong.store.postgres.store import PostgresStore
from askalong.types import Access, StoredDocument
from conftest import settings_for

ON = "This parameter can only be set in the postgresql.conf file. The default is on."
OFF = ON.replace(" on.", " off.")
PUMP = "The pump feeds the valve through a filter that is cleaned every month."
GAUGE = "Read the gauge on the left before opening the drain at the bottom of the tank."


class TrigramEmbedder(Embedder):
    """Character trigrams hashed into a vector: texts differing by a word are close (the
    planted pair's cosine is about 0.95), unrelated texts are not."""

    def __init__(self) -> None:
        super().__init__(name="trigram-test", dimension=256)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        return np.stack([self.vector(text) for text in texts])

    def vector(self, text: str) -> np.ndarray:
        row = np.zeros(self.dimension, dtype=np.float32)
        for at in range(len(text) - 2):
            digest = hashlib.sha256(text[at : at + 3].encode()).digest()
            row[int.from_bytes(digest[:4], "big") % self.dimension] += 1.0
        return row / np.linalg.norm(row)


@pytest.fixture(params=["embedded", "pgvector", "plain"])
def routes(settings: Settings, request: pytest.FixtureRequest) -> Iterator[StoreIndexes]:
    """Routes over a library's store, the vectors in the home's files or in PostgreSQL."""
    embedder = TrigramEmbedder()
    if request.param == "embedded":
        with (
            Library(settings) as library,
            SearchIndexes(settings, library.store, lambda: embedder) as local,
        ):
            yield local
        return
    server = settings_for("postgres", settings, request)
    with Library(server) as library:
        store = library.store
        assert isinstance(store, PostgresStore)
        pgvector = None if request.param == "pgvector" else False
        with PostgresRoutes(store.pool, store, lambda: embedder, pgvector=pgvector) as opened:
            yield opened


def stored(routes: StoreIndexes, doc_id: str, *texts: str) -> StoredDocument:
    """A document written to the store and the keyword route (not embedded)."""
    original = f"original {doc_id}".encode()
    document = dataclasses.replace(
        make_document(doc_id), content_hash=hashlib.sha256(original).hexdigest()
    )
    item = StoredDocument(document, (), tuple(make_chunks(doc_id, *texts)))
    routes.store.add_document(item, original)
    routes.add(document, item.chunks)
    return item


def embedded(routes: StoreIndexes, doc_id: str, *texts: str) -> StoredDocument:
    item = stored(routes, doc_id, *texts)
    routes.embed([item.document])
    return item


def neighbours(routes: StoreIndexes) -> Neighbours:
    found = scan_neighbours(routes.vectors)
    assert found is not None
    return found


def test_near_finds_close_chunks_of_other_documents_only(routes: StoreIndexes) -> None:
    embedded(routes, "a", ON, PUMP)
    embedded(routes, "b", OFF, OFF.replace("file", "file only"), GAUGE)
    nearby = neighbours(routes).near(
        "b", ["b:0", "b:1", "b:2"], min_cosine=MIN_COSINE, limit=NEIGHBOURS
    )
    assert nearby.with_vectors == {"b:0", "b:1", "b:2"}
    found = {(n.own, n.other) for n in nearby.neighbours}
    assert found == {("b:0", "a:0"), ("b:1", "a:0")}  # never b's own close chunks
    cosines = {n.own: n.cosine for n in nearby.neighbours}
    embedder = TrigramEmbedder()
    exact = float(embedder.vector(OFF) @ embedder.vector(ON))
    assert cosines["b:0"] == pytest.approx(exact, abs=1e-4)
    assert MIN_COSINE <= exact < 0.99


def test_the_limit_keeps_the_nearest(routes: StoreIndexes) -> None:
    embedded(routes, "a", ON)
    embedded(routes, "b", OFF)
    embedded(routes, "c", ON.replace("This", "this"))  # nearer to a than b is
    nearby = neighbours(routes).near("a", ["a:0"], min_cosine=MIN_COSINE, limit=1)
    assert [(n.own, n.other) for n in nearby.neighbours] == [("a:0", "c:0")]


def test_chunks_without_vectors_and_vectors_set_aside_are_not_scanned(
    routes: StoreIndexes,
) -> None:
    a = embedded(routes, "a", ON)
    embedded(routes, "b", OFF)
    stored(routes, "c", OFF)
    scan = neighbours(routes)
    assert scan.near("c", ["c:0"], min_cosine=MIN_COSINE, limit=NEIGHBOURS).with_vectors == set()
    routes.add(a.document, a.chunks)  # written afresh: a's vectors set aside
    nearby = scan.near("b", ["b:0"], min_cosine=MIN_COSINE, limit=NEIGHBOURS)
    assert nearby.with_vectors == {"b:0"} and nearby.neighbours == ()
    assert scan.near("a", ["a:0"], min_cosine=MIN_COSINE, limit=NEIGHBOURS).with_vectors == set()


def test_the_scan_records_a_planted_contradiction(routes: StoreIndexes) -> None:
    embedded(routes, "a", ON, PUMP)
    embedded(routes, "b", OFF, GAUGE)
    stored(routes, "c", ON)
    scanner = ConflictScanner(routes.store, neighbours(routes))
    report = scanner.scan("b")
    assert (report.documents, report.chunks, report.skipped, report.found) == (1, 2, 0, 1)
    assert scanner.scan("c").skipped == 1  # no vector yet
    [pair] = routes.store.conflict_pairs(Access.local())
    assert pair.kind == "setting"
    assert {pair.first.chunk_id, pair.second.chunk_id} == {"a:0", "b:0"}
    assert pair.cosine >= MIN_COSINE


@pytest.fixture
def server_library(
    settings: Settings, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Library]:
    """A library in server mode (store and routes in PostgreSQL) embedding by trigrams."""
    server = settings_for("postgres", settings, request)
    monkeypatch.setattr("askalong.library.make_embedder", lambda _: TrigramEmbedder())
    monkeypatch.setenv("ASKALONG_DATABASE_URL", server.database_url or "")
    with Library(dataclasses.replace(server, embedder="local")) as library:
        assert isinstance(library.indexes, PostgresRoutes)
        yield library


def test_a_server_library_scans_what_it_embeds_and_the_cli_lists_it(
    server_library: Library,
) -> None:
    for doc_id, texts in (("a", (ON, PUMP)), ("b", (OFF, GAUGE))):
        stored(server_library.indexes, doc_id, *texts)
    assert server_library.indexes.embed_pending().documents == 2  # each scanned once embedded
    [pair] = server_library.store.conflict_pairs(Access.local())
    assert {pair.first.document_id, pair.second.document_id} == {"a", "b"}
    assert server_library.store.unscanned_documents() == []

    result = CliRunner().invoke(main, ["conflicts", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    [listed] = found["conflicts"]
    assert {side["document_id"] for side in listed["sides"]} == {"a", "b"}
    assert listed["kind"] == "setting"
