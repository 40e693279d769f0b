"""Isolation (issue 14): a seeded world of users, orgs three levels deep and documents of
every visibility (source files in a repository too), uploaded and shared over HTTP with
each user's own token, then sent through every route the app serves as every user.

Every response is held against the oracle (``isolation_world``): no hit, quote, citation,
caller, listed or counted document the caller may not see, no hidden document's id or
text in any answer, and for every route the owner gets 2xx where an intruder gets 404
(never 403, and worded as for an id that names nothing: a refusal must not tell that the
document exists). The probes are ``isolation_probes``; the sample world reaches every
route the app serves, and fails when one is left out (``test_isolation_sample``). The
full world (over four thousand requests) is slow; the sample runs with ``make test``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import isolation_probes as probe
import pytest
from api_client import api_client
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from isolation_run import Run, build
from isolation_world import World, make_world
from starlette.routing import BaseRoute, Route

from askalong.config import Settings

# The framework's own pages: the schema and its viewer, which name no document.
FRAMEWORK = {("GET", "/openapi.json"), ("GET", "/docs"), ("GET", "/docs/oauth2-redirect")}


def check_sharing(run: Run) -> None:
    """Only the owner, or an admin of an org a shared document is tagged with, may set a
    document's visibility (set to what it is, so the world stays as the oracle says)."""
    for doc in run.world.docs:
        tags = set(run.world.members[doc.owner])
        for user in run.world.users:
            admin = doc.visibility != "private" and bool(set(run.world.admins[user]) & tags)
            allowed = user == doc.owner or admin
            route = "/api/documents/{doc}/visibility"
            body = {"visibility": doc.visibility}
            run.expect(user, "PUT", route, allowed, doc=run.ids[doc.key], json=body)


@pytest.fixture
def owner(backend_settings: Settings) -> Iterator[TestClient]:
    """The install's owner's client of an app over each store backend."""
    with api_client(backend_settings) as client:
        yield client


def isolation(owner: TestClient, world: World, *, asking: str) -> Run:
    """``asking``: ``all`` asks about every document, ``some`` one visible, one hidden."""
    run = build(world, owner)
    blocks = probe.symbol_blocks(run)
    conversations = {}
    for user in world.users:
        probe.check_searches(run, user)
        probe.check_routes(run, user)
        probe.check_code(run, user, blocks)
        probe.check_collections(run, user)
        probe.check_uploads(run, user)
        probe.check_accounts(run, user)
        visible = world.visible(user)
        asked = [d for d in world.docs if asking == "all" or d.key in visible][:1]
        asked += [d for d in world.docs if asking == "all" or d.key not in visible][:1]
        probe.check_asking(run, user, list(dict.fromkeys(asked)))
        conversations[user] = probe.check_chat(run, user)
    probe.check_conversations(run, conversations)
    probe.check_turn_counts(run, conversations)
    probe.check_admin(run, world.users[0])  # the first account made administers the rest
    check_sharing(run)
    probe.check_removal(run)
    return run


def report(run: Run) -> None:
    """The figures for the README and the results file (``pytest -s``): requests per route."""
    print(f"isolation: {run.requests} requests, {len(run.routes)} routes, {len(run.leaks)} leaks")
    for (method, route), count in sorted(run.routes.items(), key=lambda r: (r[0][1], r[0][0])):
        print(f"| `{method} {route}` | {count} |")
    print("\n".join(run.leaks[:40]))


def served_routes(routes: Sequence[BaseRoute]) -> set[tuple[str, str]]:
    """Every (method, route) the app answers, its included routers' too (FastAPI keeps
    each as one entry holding its ``original_router``), but the framework's own pages."""
    found: set[tuple[str, str]] = set()
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            found |= served_routes(included.routes)
        elif isinstance(route, Route | APIRoute) and route.methods:
            found |= {
                (m, route.path) for m in route.methods if m != "HEAD" or len(route.methods) == 1
            }
    return found - FRAMEWORK


def test_isolation_sample(owner: TestClient) -> None:
    """No leak in the small world, whose run also reaches every route the app serves: a
    route added to the app without a probe in the generator fails here."""
    run = isolation(owner, make_world(seed=14, users=3, pdfs=1, coders=1), asking="some")
    report(run)
    app = owner.app
    assert isinstance(app, FastAPI)
    missing = served_routes(app.routes) - set(run.routes)
    assert not missing, f"routes no probe sends to: {sorted(missing)}"
    assert not set(run.routes) - served_routes(app.routes), (
        "probes of routes the app does not serve"
    )
    assert run.leaks == [] and run.requests > 500


@pytest.mark.slow
def test_isolation_full(settings: Settings) -> None:
    """The full world on the embedded store (the sample runs on every backend)."""
    world = make_world(seed=1414, users=8, pdfs=2, coders=3)
    with api_client(settings) as owner:
        run = isolation(owner, world, asking="all")
    report(run)
    assert run.leaks == [] and run.requests >= 3000
