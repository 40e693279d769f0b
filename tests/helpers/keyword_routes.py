"""Both keyword routes behind one fixture, so the route contract runs against each: the
embedded tantivy index and PostgreSQL's term rows (on the session's throwaway cluster)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from pg_cluster import pg_pool

from askalong.index.keyword import KeywordIndex
from askalong.index.pg_keyword import PostgresKeywordRoute
from conftest import slow_on_postgres

ROUTES = ("embedded", "postgres")
KeywordRoutes = KeywordIndex | PostgresKeywordRoute
Opener = Callable[..., KeywordRoutes]  # (sections=True) -> a route on the same storage


@pytest.fixture(params=[slow_on_postgres(name) for name in ROUTES])
def open_route(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a keyword route (each call another instance over the same storage)."""
    with ExitStack() as stack:
        if request.param == "embedded":
            yield lambda sections=True: KeywordIndex(tmp_path / "keyword", sections=sections)
        else:
            pool = stack.enter_context(pg_pool(request.getfixturevalue("pg_url")))
            yield lambda sections=True: PostgresKeywordRoute(pool, sections=sections)
