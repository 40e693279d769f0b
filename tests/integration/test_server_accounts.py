"""Accounts on the HTTP server (issue 14, Auth): once the first account exists every
route needs a session or a token (401), a session's write needs its CSRF token (403), a
disabled user's token and session stop at once, passwords never reach a log."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest
from api_client import BASE_URL, api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.store.base import Store

PASSWORD = "a long secret phrase 7"
NOTES = b"# Tides\n\nTides follow the Moon, twice a day.\n"


@pytest.fixture
def owner(settings: Settings) -> Iterator[TestClient]:
    """The install's owner (the install token), on a server that has accounts."""
    with api_client(settings) as client:
        store = store_of(client)
        store.add_user("alice", PASSWORD)
        store.add_user("bob", PASSWORD)
        yield client


def store_of(client: TestClient) -> Store:
    app = client.app
    assert isinstance(app, FastAPI)
    store: Store = app.state.askalong.library.store
    return store


def anonymous(client: TestClient) -> TestClient:
    return TestClient(client.app, base_url=BASE_URL)


def with_token(client: TestClient, user: str) -> TestClient:
    _, secret = store_of(client).create_token(user, "test")
    return TestClient(client.app, base_url=BASE_URL, headers={"Authorization": f"Bearer {secret}"})


def signed_in(client: TestClient, user: str, password: str = PASSWORD) -> tuple[TestClient, str]:
    browser = anonymous(client)
    response = browser.post("/api/login", json={"user": user, "password": password})
    assert response.status_code == 200, response.text
    return browser, response.json()["csrf_token"]


def api_requests(app: FastAPI) -> list[tuple[str, str]]:
    """Every API route with its methods, path parameters filled in."""
    out = []
    for path, operations in app.openapi()["paths"].items():
        filled = re.sub(r"\{[^}]+\}", "abcd1234", path)
        out += [(method.upper(), filled) for method in sorted(operations)]
    return out


def test_zero_config_needs_no_login(settings: Settings) -> None:
    with api_client(settings) as client:
        assert client.get("/api/session").json() == {
            "user": "local",
            "multi_user": False,
            "csrf_token": None,
            "orgs": [],
            "admin_of": [],
        }
        assert client.post("/api/login", json={"user": "a", "password": "b"}).status_code == 400


def test_every_route_without_credentials_is_401(owner: TestClient) -> None:
    app = owner.app
    assert isinstance(app, FastAPI)
    nobody = anonymous(owner)
    seen = api_requests(app)
    assert len(seen) >= 14
    for method, path in seen:
        if path in ("/api/login",):
            continue
        response = nobody.request(method, path)
        assert response.status_code == 401, (method, path, response.text)
    assert nobody.get("/", follow_redirects=False).headers["location"] == "/login.html"
    assert nobody.get("/login.html").status_code == 200


def test_account_tokens_and_sessions_open_the_api(owner: TestClient) -> None:
    assert with_token(owner, "alice").get("/api/documents").status_code == 200
    browser, csrf = signed_in(owner, "alice")
    assert browser.get("/api/session").json()["user"] == "alice"
    assert browser.get("/api/session").json()["csrf_token"] == csrf
    wrong = anonymous(owner).post("/api/login", json={"user": "alice", "password": "nope!nope"})
    assert wrong.status_code == 401
    unknown = anonymous(owner).post("/api/login", json={"user": "zed", "password": PASSWORD})
    assert unknown.json()["error"]["message"] == wrong.json()["error"]["message"]


def test_a_session_write_without_its_csrf_token_is_403(owner: TestClient) -> None:
    browser, csrf = signed_in(owner, "alice")
    upload = {"file": ("tides.md", NOTES)}
    refused = browser.post("/api/documents", files=upload)
    assert refused.status_code == 403 and refused.json()["error"]["type"] == "CsrfMissing"
    _, bobs = signed_in(owner, "bob")  # another session's token does not do
    for forged in ("0" * 64, bobs):
        sent = browser.post("/api/documents", files=upload, headers={"X-CSRF-Token": forged})
        assert sent.status_code == 403
    done = browser.post("/api/documents", files=upload, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 201, done.text
    assert done.json()["document"]["owner"] == "alice"
    again = browser.post("/api/login", json={"user": "alice", "password": PASSWORD})
    assert again.status_code == 200  # signing in again needs no CSRF token
    csrf = again.json()["csrf_token"]
    assert browser.post("/api/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert browser.get("/api/documents").status_code == 401


def test_a_disabled_user_is_out_at_once(owner: TestClient) -> None:
    scripted = with_token(owner, "alice")
    browser, _ = signed_in(owner, "alice")
    assert scripted.get("/api/documents").status_code == 200
    store_of(owner).set_disabled("alice", True)
    assert scripted.get("/api/documents").status_code == 401
    assert browser.get("/api/documents").status_code == 401
    failed = anonymous(owner).post("/api/login", json={"user": "alice", "password": PASSWORD})
    assert failed.status_code == 401


def test_a_revoked_token_stops_working(owner: TestClient) -> None:
    store = store_of(owner)
    made, secret = store.create_token("bob")
    client = TestClient(owner.app, base_url=BASE_URL, headers={"Authorization": f"Bearer {secret}"})
    assert client.get("/api/documents").status_code == 200
    store.revoke_token(made.id)
    assert client.get("/api/documents").status_code == 401


def test_passwords_never_reach_a_log(owner: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "unmistakable-password-42"
    store_of(owner).add_user("carol", secret)
    nobody = anonymous(owner)
    nobody.post("/api/login", json={"user": "carol", "password": secret})
    nobody.post("/api/login", json={"user": "carol", "password": secret + "x"})
    nobody.post("/api/login", json={"user": "carol", "password": secret * 100})  # over limit
    nobody.post("/api/login", json={"user": secret, "password": 5})
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert caplog.records and secret not in logged


def test_uploading_someone_elses_private_file_tells_nothing_of_it(owner: TestClient) -> None:
    """A second uploader of the same bytes is never handed the first one's private document
    (title, owner, id in a listing), nor told it exists: they get a copy of their own."""
    alice, bob = with_token(owner, "alice"), with_token(owner, "bob")
    first = alice.post("/api/documents", files={"file": ("alice-diary.md", NOTES)})
    assert first.status_code == 201
    again = bob.post("/api/documents", files={"file": ("mine.md", NOTES)})
    assert again.status_code == 201 and again.json()["status"] == "added"
    assert "alice" not in again.text
    listed = [d["id"] for d in bob.get("/api/documents").json()["documents"]]
    assert listed == [again.json()["document"]["id"]] != [first.json()["document"]["id"]]
    assert (
        alice.post("/api/documents", files={"file": ("x.md", NOTES)}).json()["status"] == "exists"
    )
