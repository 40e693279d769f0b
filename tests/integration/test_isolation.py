"""Isolation (issue 14): a seeded world of users, orgs three levels deep and documents of
every visibility, uploaded and shared over HTTP with each user's own token, then queried
through the search, ask, document, page, original and thread routes as every user.

Every response is held against the oracle (``isolation_world``): no hit, quote, listed or
counted document the caller may not see, and for every route the owner gets 200 where an
intruder gets 404 (never 403: a refusal must not tell that the document exists). The
full world (over a thousand requests) is slow; a smaller world runs in ``make check``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from api_client import BASE_URL, api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient
from isolation_world import SHARED_WORDS, Doc, World, make_world
from samples import sized_pdf

from askalong.config import Settings
from askalong.store.base import Store

PASSWORD = "isolation password 1"


@dataclass
class Run:
    world: World
    clients: dict[str, TestClient]
    ids: dict[str, str]  # doc key -> document id
    requests: int = 0
    leaks: list[str] = field(default_factory=list)

    def get(self, user: str, path: str, **params: object) -> tuple[int, dict[str, object]]:
        self.requests += 1
        response = self.clients[user].get(path, params=params)  # type: ignore[arg-type]
        is_json = response.headers.get("content-type", "").startswith("application/json")
        return response.status_code, response.json() if is_json else {}

    def expect(self, user: str, path: str, visible: bool, what: str) -> None:
        status, _ = self.get(user, path)
        if status != (200 if visible else 404):
            self.leaks.append(f"{user} {what} {path}: {status}")

    def key_of(self, document_id: str) -> str:
        return next(key for key, value in self.ids.items() if value == document_id)


def build(settings: Settings, world: World, owner: TestClient) -> Run:
    app = owner.app
    assert isinstance(app, FastAPI)
    store: Store = app.state.askalong.library.store
    for org, parent in world.parents.items():  # parents come before their children
        store.add_org(org, parent)
    clients = {}
    for user in world.users:
        store.add_user(user, PASSWORD)
        for org in world.members[user]:
            store.set_member(org, user, "admin" if org in world.admins[user] else "member")
        _, secret = store.create_token(user)
        headers = {"Authorization": f"Bearer {secret}"}
        clients[user] = TestClient(app, base_url=BASE_URL, headers=headers)
    run = Run(world, clients, {})
    for doc in world.docs:
        run.ids[doc.key] = upload(clients[doc.owner], doc)
    return run


def upload(client: TestClient, doc: Doc) -> str:
    data = sized_pdf((400.0, 300.0), text=doc.text().replace("#", "")) if doc.pdf else None
    name, body = (f"{doc.key}.pdf", data) if data else (f"{doc.key}.md", doc.text().encode())
    made = client.post("/api/documents", files={"file": (name, body)})
    assert made.status_code == 201, made.text
    document_id: str = made.json()["document"]["id"]
    shared = client.put(
        f"/api/documents/{document_id}/visibility", json={"visibility": doc.visibility}
    )
    assert shared.status_code == 200 and shared.json()["visibility"] == doc.visibility
    return document_id


def check_searches(run: Run, user: str) -> None:
    """Each document's own word finds exactly it when visible, nothing otherwise; a word
    many documents share finds only visible ones (the ranking's cutoff may leave some
    out), and at least one when any visible document says it."""
    visible = run.world.visible(user)
    for word in (*SHARED_WORDS, *(d.key for d in run.world.docs)):
        status, body = run.get(user, "/api/search", q=word, k=50)
        found = {run.key_of(hit["document_id"]) for hit in body["hits"]}  # type: ignore[attr-defined]
        expected = {d.key for d in run.world.docs if d.key in visible and word in d.text()}
        whole = word not in SHARED_WORDS
        if status != 200 or not found <= expected or (whole and found != expected):
            run.leaks.append(f"{user} search {word}: {sorted(found ^ expected)}")
        elif expected and not found:
            run.leaks.append(f"{user} search {word}: found none of {sorted(expected)}")


def check_routes(run: Run, user: str) -> None:
    visible = run.world.visible(user)
    _, listed = run.get(user, "/api/documents")
    keys = {run.key_of(d["id"]) for d in listed["documents"]}  # type: ignore[attr-defined]
    if keys != visible:
        run.leaks.append(f"{user} list: {sorted(keys ^ visible)}")
    for doc in run.world.docs:
        seen, base = doc.key in visible, f"/api/documents/{run.ids[doc.key]}"
        for suffix in ("", "/original", "/threads", *(("/pages/1.png",) if doc.pdf else ())):
            run.expect(user, base + suffix, seen, "route")


def check_asking(run: Run, user: str) -> None:
    """Ask about every document: the owner's questions are answered from their own
    documents only, an intruder's refused with 404; a thread stays its asker's."""
    visible = run.world.visible(user)
    for doc in run.world.docs:
        run.requests += 1
        body = {"document_id": run.ids[doc.key], "question": f"What is {doc.key}?", "stream": False}
        response = run.clients[user].post("/api/ask", json=body)
        if response.status_code != (200 if doc.key in visible else 404):
            run.leaks.append(f"{user} ask {doc.key}: {response.status_code}")
            continue
        if response.status_code == 200:
            quoted = {run.key_of(q["document_id"]) for q in response.json()["quotes"]}
            if not quoted <= visible:
                run.leaks.append(f"{user} ask quoted {sorted(quoted - visible)}")
            for other in run.world.users:
                if other != user:
                    run.expect(
                        other, f"/api/threads/{response.json()['thread_id']}", False, "thread"
                    )


def check_sharing(run: Run) -> None:
    """Only the owner, or an admin of an org a shared document is tagged with, may set a
    document's visibility (set to what it is, so the world stays as the oracle says)."""
    for doc in run.world.docs:
        tags = set(run.world.members[doc.owner])
        for user in run.world.users:
            admin = doc.visibility != "private" and bool(set(run.world.admins[user]) & tags)
            allowed = user == doc.owner or admin
            run.requests += 1
            path = f"/api/documents/{run.ids[doc.key]}/visibility"
            sent = run.clients[user].put(path, json={"visibility": doc.visibility})
            if sent.status_code != (200 if allowed else 404):
                run.leaks.append(f"{user} set visibility of {doc.key}: {sent.status_code}")


@pytest.fixture
def owner(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def isolation(settings: Settings, owner: TestClient, world: World, *, asking: bool) -> Run:
    run = build(settings, world, owner)
    for user in world.users:
        check_searches(run, user)
        check_routes(run, user)
        if asking:
            check_asking(run, user)
    check_sharing(run)
    return run


def test_isolation_sample(settings: Settings, owner: TestClient) -> None:
    run = isolation(settings, owner, make_world(seed=14, users=4, pdfs=1), asking=False)
    assert run.leaks == [] and run.requests > 150


@pytest.mark.slow
def test_isolation_full(settings: Settings, owner: TestClient) -> None:
    run = isolation(settings, owner, make_world(seed=1414, users=8, pdfs=2), asking=True)
    print(f"isolation: {run.requests} requests, {len(run.leaks)} leaks", run.leaks[:10])
    assert run.leaks == [] and run.requests >= 1000
