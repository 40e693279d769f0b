"""Signing in and sessions over HTTP (issue 25, OWASP ASVS V2.2, V3.3): after 5 failed
tries for an account or from an address a try is 429 with ``Retry-After`` (doubling) and
no password is hashed for it; the lockout is logged; a success clears the account's
count. Signing out ends the session on the server (its cookie, replayed, is 401);
disabling a user ends their sessions for good; a password change ends the other
sessions. User ids ignore case. The clock is injected: nothing sleeps."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from api_client import BASE_URL, api_client
from fastapi.testclient import TestClient
from test_server_accounts import PASSWORD, anonymous, signed_in, store_of
from test_server_limits import START, Clock

from askalong.config import Settings
from askalong.server.app import create_app

WRONG = "not the password"
NEW_PASSWORD = "a new long phrase 8"


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def owner(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with api_client(settings, create_app(settings, clock=clock)) as client:
        store_of(client).add_user("alice", PASSWORD)
        store_of(client).add_user("bob", PASSWORD)
        yield client


def from_address(owner: TestClient, address: str) -> TestClient:
    return TestClient(owner.app, base_url=BASE_URL, client=(address, 40000))


def login(client: TestClient, user: str, password: str) -> int:
    return client.post("/api/login", json={"user": user, "password": password}).status_code


def test_a_sixth_wrong_try_waits_and_hashes_nothing(
    owner: TestClient,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = store_of(owner)
    checked: list[str] = []
    check = store.check_password
    monkeypatch.setattr(store, "check_password", lambda u, p: checked.append(u) or check(u, p))
    guesser = from_address(owner, "203.0.113.5")
    with caplog.at_level(logging.WARNING, logger="askalong.server"):
        assert [login(guesser, "alice", WRONG) for _ in range(5)] == [401] * 5
    assert "sign-in locked: 5 failed tries for user 'alice'" in caplog.text
    refused = guesser.post("/api/login", json={"user": "alice", "password": PASSWORD})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert refused.json()["retry_after"] == 1
    assert len(checked) == 5  # the refused try hashed no password
    other = from_address(owner, "198.51.100.7")  # the account is throttled from anywhere
    assert login(other, "ALICE", PASSWORD) == 429
    clock.now += 1
    assert login(guesser, "alice", WRONG) == 401
    assert (
        guesser.post("/api/login", json={"user": "alice", "password": WRONG}).headers["Retry-After"]
        == "2"
    )
    clock.now += 2
    assert login(other, "alice", PASSWORD) == 200  # clears alice's count
    assert [login(other, "alice", WRONG) for _ in range(5)] == [401] * 5


def test_an_address_guessing_many_accounts_is_throttled(owner: TestClient) -> None:
    """140 wrong guesses over many user names from one address: 5 are tried, the rest
    refused (today's main refused none)."""
    guesser = from_address(owner, "203.0.113.9")
    answers = [login(guesser, f"user{n % 7}", f"guess {n}") for n in range(140)]
    assert answers.count(401) == 5 and answers.count(429) == 135
    assert login(from_address(owner, "198.51.100.8"), "bob", PASSWORD) == 200


def test_signing_out_ends_the_session_on_the_server(owner: TestClient) -> None:
    browser, csrf = signed_in(owner, "alice")
    stolen = TestClient(owner.app, base_url=BASE_URL, cookies=dict(browser.cookies))
    assert stolen.get("/api/session").json()["user"] == "alice"
    assert browser.post("/api/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert stolen.get("/api/session").status_code == 401


def test_disabling_ends_sessions_for_good(owner: TestClient) -> None:
    browser, _ = signed_in(owner, "bob")
    kept = dict(browser.cookies)
    assert owner.patch("/api/admin/users/bob", json={"disabled": True}).status_code == 200
    assert owner.patch("/api/admin/users/bob", json={"disabled": False}).status_code == 200
    replayed = TestClient(owner.app, base_url=BASE_URL, cookies=kept)
    assert replayed.get("/api/session").status_code == 401
    assert signed_in(owner, "bob")[0].get("/api/session").json()["user"] == "bob"


def test_a_password_change_ends_the_other_sessions(owner: TestClient) -> None:
    here, csrf = signed_in(owner, "alice")
    phone, _ = signed_in(owner, "alice")
    wrong = here.post(
        "/api/password",
        json={"password": WRONG, "new_password": NEW_PASSWORD},
        headers={"X-CSRF-Token": csrf},
    )
    assert wrong.status_code == 401
    changed = here.post(
        "/api/password",
        json={"password": PASSWORD, "new_password": NEW_PASSWORD},
        headers={"X-CSRF-Token": csrf},
    )
    assert changed.status_code == 204, changed.text
    assert here.get("/api/session").json()["user"] == "alice"
    assert phone.get("/api/session").status_code == 401
    assert login(anonymous(owner), "alice", PASSWORD) == 401
    assert login(anonymous(owner), "alice", NEW_PASSWORD) == 200
    assert (
        owner.post("/api/password", json={"password": "x", "new_password": "y"}).status_code == 400
    )


def test_user_ids_ignore_case(owner: TestClient) -> None:
    browser = anonymous(owner)
    signed = browser.post("/api/login", json={"user": "Alice", "password": PASSWORD})
    assert signed.status_code == 200 and signed.json()["user"] == "alice"
    assert browser.get("/api/session").json()["user"] == "alice"
    taken = owner.post("/api/admin/users", json={"user": "ALICE"})
    assert taken.status_code == 400
    assert "'alice' exists already" in taken.json()["error"]["message"]
