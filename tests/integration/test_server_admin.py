"""The admin API and page (issue 14): a site administrator (the first account, or the
install's owner) lists, makes and disables users and builds the org tree; anyone else gets
404 for the page and for every admin route, never 403, and being an administrator shows
no one else's documents."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from api_client import BASE_URL, api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server_accounts import store_of, with_token

from askalong.config import Settings

PASSWORD = "a long secret phrase 7"
NOTE = b"# Tides\n\nTides follow the Moon, twice a day.\n"


@pytest.fixture
def owner(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        store = store_of(client)
        store.add_user("root", PASSWORD)  # the first account: an administrator
        store.add_user("alice", PASSWORD)
        yield client


as_user = with_token


def admin_requests(app: FastAPI) -> list[tuple[str, str]]:
    """Every admin route of the schema with its methods, parameters filled in."""
    out = []
    for path, operations in app.openapi()["paths"].items():
        if path.startswith("/api/admin"):
            filled = re.sub(r"\{[^}]+\}", "alice", path)
            out += [(method.upper(), filled) for method in sorted(operations)]
    return out


def test_a_non_admin_gets_404_for_the_page_and_every_admin_route(owner: TestClient) -> None:
    app = owner.app
    assert isinstance(app, FastAPI)
    alice = as_user(owner, "alice")
    seen = admin_requests(app)
    assert len(seen) >= 7
    bodies = {"POST": {"user": "x", "org": "x"}, "PUT": {"role": "member"}, "PATCH": {}}
    for method, path in seen:
        response = alice.request(method, path, json=bodies.get(method))
        assert response.status_code == 404, (method, path, response.text)
    for page in ("/admin", "/admin/", "/admin/admin.js", "/admin/admin.html"):
        assert alice.get(page).status_code == 404, page
    assert store_of(owner).list_orgs() == [] and len(store_of(owner).list_users()) == 2


def test_an_admin_makes_a_user_who_signs_in_with_the_password_shown(owner: TestClient) -> None:
    root = as_user(owner, "root")
    assert root.get("/admin").headers["content-type"].startswith("text/html")
    assert "TEXT" in root.get("/admin/admin.js").text
    made = root.post("/api/admin/users", json={"user": "carol"})
    assert made.status_code == 201, made.text
    assert made.json()["user"] == {
        "id": "carol",
        "created": made.json()["user"]["created"],
        "disabled": False,
        "admin": False,
    }
    password = made.json()["password"]
    login = TestClient(owner.app, base_url=BASE_URL).post(
        "/api/login", json={"user": "carol", "password": password}
    )
    assert login.status_code == 200
    listed = root.get("/api/admin/users").json()
    assert [u["id"] for u in listed["users"]] == ["alice", "carol", "root"]
    assert password not in root.get("/api/admin/users").text  # shown once, never again
    assert root.post("/api/admin/users", json={"user": "carol"}).status_code == 400


def test_an_admin_builds_the_org_tree_and_its_members(owner: TestClient) -> None:
    root = as_user(owner, "root")
    assert root.post("/api/admin/orgs", json={"org": "acme"}).status_code == 201
    eng = root.post("/api/admin/orgs", json={"org": "eng", "parent": "acme"})
    assert eng.json()["org"]["parent"] == "acme"
    assert root.post("/api/admin/orgs", json={"org": "x", "parent": "nope"}).status_code == 404
    member = root.put("/api/admin/orgs/eng/members/alice", json={"role": "admin"})
    assert member.json() == {"membership": {"org": "eng", "user": "alice", "role": "admin"}}
    assert root.put("/api/admin/orgs/eng/members/alice", json={"role": "boss"}).status_code == 400
    orgs = root.get("/api/admin/orgs").json()
    assert [(o["id"], o["parent"]) for o in orgs["orgs"]] == [("acme", None), ("eng", "acme")]
    assert store_of(owner).access_of("alice").orgs == ("acme", "eng")
    assert root.delete("/api/admin/orgs/eng/members/alice").status_code == 204
    assert root.get("/api/admin/orgs").json()["memberships"] == []


def test_disabling_takes_effect_at_once_but_never_on_oneself(owner: TestClient) -> None:
    root, alice = as_user(owner, "root"), as_user(owner, "alice")
    assert alice.get("/api/documents").status_code == 200
    off = root.patch("/api/admin/users/alice", json={"disabled": True})
    assert off.json()["user"]["disabled"] is True
    assert alice.get("/api/documents").status_code == 401
    assert root.patch("/api/admin/users/alice", json={"disabled": False}).status_code == 200
    assert alice.get("/api/documents").status_code == 200
    assert root.patch("/api/admin/users/root", json={"disabled": True}).status_code == 400


def test_the_owner_administers_and_an_admin_sees_no_private_document(owner: TestClient) -> None:
    assert owner.get("/api/admin/users").status_code == 200  # the install token
    alice, root = as_user(owner, "alice"), as_user(owner, "root")
    assert alice.post("/api/documents", files={"file": ("diary.md", NOTE)}).status_code == 201
    assert root.get("/api/documents").json()["documents"] == []
