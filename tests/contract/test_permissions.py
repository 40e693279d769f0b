"""The permission matrix (``permissions.py``) against everything that filters by ``Access``:
the store's listing and lookup, the keyword route, the vector route, and the searcher
that runs the routes, for every backend in ``conftest.BACKENDS``.

Each check asserts exactly the visible set, and the route checks ask for only as many
hits as the caller may see: for every caller but the local user a hidden document
outranks a visible one, so a filter applied after ranking (or not at all) fails here.
The vectors are hand-made, no model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pytest
from permissions import CALLERS, DOCUMENTS, NAMED, QUERY, VISIBLE, original, stored

from askalong.config import Settings
from askalong.errors import NotFound
from askalong.index.base import KeywordRoute, SearchRoutes, VectorRoute, VectorScope
from askalong.index.choose import open_indexes
from askalong.index.keyword import CHECKED_ONE_BY_ONE
from askalong.index.pg_routes import PostgresRoutes
from askalong.index.routes import StoreIndexes
from askalong.index.sync import SearchIndexes
from askalong.providers.base import Embedder, EmbedKind
from askalong.retrieve.search import Searcher
from askalong.settings import SearchRoutesMode
from askalong.store.backends import open_store
from askalong.store.base import DocumentCounts, Store
from askalong.types import Access, Hit
from conftest import settings_for

ALL = frozenset(entry.id for entry in DOCUMENTS)
# Stored and keyword-indexed but not embedded yet: pending for those who may see it.
UNEMBEDDED = frozenset({"d4-bob-private"})
DIMENSION = 4


class TableVectors(Embedder):
    """Hand-made vectors: the query points along the first axis, and a passage leans the
    further away the fewer times it says the query word, so the table's order is the
    cosine order."""

    def __init__(self) -> None:
        super().__init__(name="permission-table", dimension=DIMENSION)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        rows = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        rows[:, 0] = 1.0
        if kind == "passage":
            rows[:, 1] = [0.3 * (len(DOCUMENTS) - t.split().count(QUERY)) for t in texts]
        return rows


@dataclass(frozen=True)
class Backend:
    store: Store
    routes: SearchRoutes
    searcher: Searcher

    @property
    def keyword(self) -> KeywordRoute:
        return self.routes.keyword

    @property
    def vectors(self) -> VectorRoute:
        assert self.routes.vectors is not None
        return self.routes.vectors


# The search routes each store runs against, opened by the library's own chooser
# (``index/choose.open_indexes``): the embedded files beside either store
# (``search_routes="embedded"``), and PostgreSQL's own over the PostgreSQL store's pool (server
# mode's default).
PAIRS = (("sqlite", "embedded"), ("postgres", "embedded"), ("postgres", "postgres"))


@contextmanager
def open_routes(name: str, settings: Settings, store: Store) -> Iterator[StoreIndexes]:
    """The search routes ``name`` over ``store``, chosen as the library chooses them."""
    modes: dict[str, SearchRoutesMode] = {"embedded": "embedded", "postgres": "auto"}
    chosen = dataclasses.replace(settings, search_routes=modes[name])
    with open_indexes(chosen, store, TableVectors) as indexes:
        kind = PostgresRoutes if name == "postgres" else SearchIndexes
        assert isinstance(indexes, kind)
        yield indexes


# PostgreSQL's pairs are `slow`, as in conftest.slow_on_postgres: make check runs SQLite's.
ON_BACKENDS = [
    pytest.param(pair, id="-".join(pair), marks=[pytest.mark.slow] if "postgres" in pair else [])
    for pair in PAIRS
]


@pytest.fixture(scope="module", params=ON_BACKENDS)
def backend(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Backend]:
    """Every document of the table stored and indexed; all but ``UNEMBEDDED`` embedded."""
    store_name, routes_name = request.param
    home = tmp_path_factory.mktemp("permissions")
    settings = settings_for(store_name, Settings(home=home), request)
    store = open_store(settings)
    with store, open_routes(routes_name, settings, store) as routes:
        for entry in DOCUMENTS:
            item = stored(entry)
            store.add_document(item, original(entry))
            routes.add(item.document, item.chunks)
        embed = [stored(e).document for e in DOCUMENTS if e.id not in UNEMBEDDED]
        assert routes.embed(embed).error is None
        yield Backend(store, routes, Searcher(store, routes))


def documents_of(hits: list[Hit]) -> set[str]:
    return {hit.document_id for hit in hits}


callers = pytest.mark.parametrize("caller", list(CALLERS))


# ----------------------------------------------------------------------------- the store


@callers
def test_store_lists_exactly_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    listed = backend.store.list_documents(CALLERS[caller])
    assert {document.id for document in listed} == VISIBLE[caller]


@callers
def test_store_counts_exactly_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    access, visible = CALLERS[caller], len(VISIBLE[caller])
    assert backend.store.count_documents(access) == DocumentCounts(visible, visible)
    named = [entry.id for entry in DOCUMENTS]  # every one named: the hidden still not counted
    assert backend.store.count_documents(access, named) == DocumentCounts(visible, visible)
    one = sorted(VISIBLE[caller])[:1]
    assert backend.store.count_documents(access, one) == DocumentCounts(len(one), len(one))
    assert backend.store.count_documents(access, []) == DocumentCounts(0, 0)


@callers
def test_store_gives_titles_only_of_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    named = [entry.id for entry in DOCUMENTS] + ["0" * 16]  # one id never stored
    titles = backend.store.document_titles(named, CALLERS[caller])
    assert set(titles) == set(VISIBLE[caller])
    for entry in DOCUMENTS:
        if entry.id in titles:
            assert titles[entry.id] == stored(entry).document.title
    assert backend.store.document_titles([], CALLERS[caller]) == {}


@callers
def test_store_finds_by_id_or_prefix_only_what_the_caller_may_see(
    backend: Backend, caller: str
) -> None:
    access = CALLERS[caller]
    for entry in DOCUMENTS:
        for ref in (entry.id, entry.id[:6]):
            if entry.id in VISIBLE[caller]:
                assert backend.store.get_document(ref, access) == stored(entry).document
            else:
                with pytest.raises(NotFound):
                    backend.store.get_document(ref, access)


@callers
def test_store_lists_only_the_collection_members_the_caller_may_see(
    backend: Backend, caller: str
) -> None:
    """A collection holding every document (made by the local user, who sees them all)
    lists and counts, for each caller, exactly the members that caller may see."""
    made = backend.store.add_to_collection("every document", sorted(ALL), Access.local())
    access = CALLERS[caller]
    members = backend.store.collection_documents(made.id, access)
    assert {document.id for document in members} == VISIBLE[caller]
    assert backend.store.collection_document_ids(made.id, access) == sorted(VISIBLE[caller])
    if access.everything:
        counted = backend.store.get_collection(made.id, access)
        assert (counted.documents, counted.chunks) == (len(ALL), len(ALL))


# ----------------------------------------------------------------------------- keyword route


@callers
def test_keyword_route_ranks_exactly_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    access, visible = CALLERS[caller], VISIBLE[caller]
    top = backend.keyword.search(QUERY, access, limit=len(visible))
    assert documents_of(top) == visible
    named = backend.keyword.search(QUERY, access, documents=NAMED, limit=len(visible & NAMED))
    assert documents_of(named) == visible & NAMED


@callers
def test_keyword_route_lists_exactly_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    access, visible = CALLERS[caller], VISIBLE[caller]
    assert backend.keyword.document_ids(access) == visible
    assert backend.keyword.document_ids(access, among=NAMED) == visible & NAMED


@callers
def test_keyword_route_lists_among_many_named_what_the_caller_may_see(
    backend: Backend, caller: str
) -> None:
    """A collection names hundreds of documents: past ``CHECKED_ONE_BY_ONE`` the route
    lists and intersects instead of checking each, under the same rule."""
    many = NAMED | {f"d-absent-{i}" for i in range(CHECKED_ONE_BY_ONE)}
    access, visible = CALLERS[caller], VISIBLE[caller]
    assert backend.keyword.document_ids(access, among=many) == visible & NAMED
    assert backend.vectors.scope(access, many).ready == (visible & NAMED) - UNEMBEDDED


@callers
def test_keyword_route_ranks_among_many_named_what_the_caller_may_see(
    backend: Backend, caller: str
) -> None:
    """Many named documents that hold all the caller may see (a knowledge base named
    whole) let the route drop its document filter: the permission filter still hides
    the rest. Many that leave out some visible documents keep them out."""
    access, visible = CALLERS[caller], VISIBLE[caller]
    absent = {f"d-absent-{i}" for i in range(CHECKED_ONE_BY_ONE)}
    whole = backend.keyword.search(QUERY, access, documents=ALL | absent, limit=len(ALL))
    assert documents_of(whole) == visible
    some = backend.keyword.search(QUERY, access, documents=NAMED | absent, limit=len(ALL))
    assert documents_of(some) == visible & NAMED


def test_keyword_route_lists_everything_for_sync(backend: Backend) -> None:
    assert backend.keyword.document_ids() == ALL
    assert backend.keyword.document_ids(among=NAMED) == ALL & NAMED


# ----------------------------------------------------------------------------- vector route


@callers
def test_vector_scope_is_exactly_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    access, visible = CALLERS[caller], VISIBLE[caller]
    assert backend.vectors.scope(access) == VectorScope(visible - UNEMBEDDED, visible & UNEMBEDDED)
    named = visible & NAMED
    assert backend.vectors.scope(access, NAMED) == VectorScope(
        named - UNEMBEDDED, named & UNEMBEDDED
    )


@callers
def test_vector_route_ranks_exactly_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    access, query = CALLERS[caller], np.eye(DIMENSION, dtype=np.float32)[0]
    for documents in (None, NAMED):
        scope = backend.vectors.scope(access, documents)
        top = backend.vectors.search(query, scope, limit=len(scope.ready))
        assert documents_of(top) == scope.ready
        assert scope.ready <= VISIBLE[caller]


# ----------------------------------------------------------------------------- the searcher


@callers
def test_searcher_ranks_only_what_the_caller_may_see(backend: Backend, caller: str) -> None:
    access, visible = CALLERS[caller], VISIBLE[caller]
    ranking = backend.searcher.ranking
    assert documents_of(ranking(QUERY, access)) == visible
    assert documents_of(ranking(QUERY, access, use_vectors=False)) == visible
    assert documents_of(ranking(QUERY, access, use_keyword=False)) == visible - UNEMBEDDED


@callers
def test_searcher_finds_nothing_in_named_documents_the_caller_may_not_see(
    backend: Backend, caller: str
) -> None:
    """The edges resolve named documents (a hidden one is NotFound there); a hidden id that
    reaches the searcher anyway still gives no hit: every route filters in its own query."""
    access = CALLERS[caller]
    for entry in DOCUMENTS:
        result = backend.searcher.search(QUERY, access, documents=(entry.id,))
        found = {hit.document_id for hit in result.hits}
        if entry.id in VISIBLE[caller]:
            assert result.routes and found <= {entry.id}
        else:
            assert found == set(), (caller, entry.id)
