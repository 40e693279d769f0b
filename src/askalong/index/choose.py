"""Opening the search routes the settings name, beside the store already open.

``search_routes`` "auto" puts them in the store's own database when that is PostgreSQL
(``PostgresRoutes``, over the store's pool: every app server and worker, whatever its
home, searches and writes the same rows), and in the home's files otherwise
(``SearchIndexes``); "embedded" keeps the home's files with any store.
``scan_neighbours`` reads the vectors of whichever is open for the contradiction scan.
"""

from __future__ import annotations

from askalong.config import Settings
from askalong.index.base import VectorRoute
from askalong.index.neighbours import IndexNeighbours, Neighbours
from askalong.index.routes import EmbedderFactory, StoreIndexes
from askalong.index.sync import SearchIndexes
from askalong.index.vector_route import VectorIndexRoute
from askalong.store.base import Store


def in_database(settings: Settings) -> bool:
    """Whether the settings put the search routes in the store's PostgreSQL database."""
    return settings.search_routes == "auto" and bool(settings.database_url)


def open_indexes(settings: Settings, store: Store, embedder: EmbedderFactory) -> StoreIndexes:
    if in_database(settings):
        # psycopg is the server extra: imported only when server mode is asked for
        from askalong.index.pg_routes import PostgresRoutes
        from askalong.store.postgres.store import PostgresStore

        assert isinstance(store, PostgresStore), "a database URL opens a PostgreSQL store"
        return PostgresRoutes(store.pool, store, embedder)
    return SearchIndexes(settings, store, embedder)


def scan_neighbours(vectors: VectorRoute | None) -> Neighbours | None:
    """The nearest-neighbour reads of the vector route open; None without one."""
    if isinstance(vectors, VectorIndexRoute):
        return IndexNeighbours(vectors.index)
    if vectors is None:
        return None
    # psycopg is the server extra: a route other than the local one is PostgreSQL's
    from askalong.index.pg_neighbours import PostgresNeighbours
    from askalong.index.pg_vector import PostgresVectorRoute

    assert isinstance(vectors, PostgresVectorRoute), "the vector routes are local or PostgreSQL"
    return PostgresNeighbours(vectors)
