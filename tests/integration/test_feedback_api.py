"""Feedback over HTTP (issue 16): ``POST /api/feedback`` on a real answer to a real page of
the PostgreSQL manual. The record keeps a frozen copy of the turn (its citations with
chunk ids and hashes, the ranked hits with their route scores); another user's turn is a
404 (fail closed); bad input is a 422; a browser session's POST needs its CSRF token."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from api_client import BASE_URL, api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.store.base import Store
from askalong.types import Access

PASSWORD = "a long secret phrase 7"
PAGE = "manuals/postgresql-15-html/sql-truncate.html"
QUESTION = "What does TRUNCATE do to a table?"
JSON_TYPE = {"Content-Type": "application/json"}


def _store(client: TestClient) -> Store:
    app = client.app
    assert isinstance(app, FastAPI)
    store: Store = app.state.askalong.library.store
    return store


def _token(client: TestClient, user: str) -> TestClient:
    _, secret = _store(client).create_token(user, "test")
    headers = {"Authorization": f"Bearer {secret}"}
    return TestClient(client.app, base_url=BASE_URL, headers=headers)


@pytest.fixture
def owner(settings: Settings, evaldata: Path) -> Iterator[TestClient]:
    with api_client(settings) as client:
        store = _store(client)
        store.add_user("alice", PASSWORD)
        store.add_user("bob", PASSWORD)
        library = client.app.state.askalong.library  # type: ignore[attr-defined]
        outcome = library.ingestor.add(str(evaldata / PAGE), store.access_of("alice"))
        assert outcome.document is not None, outcome.error
        yield client


def _asked(client: TestClient) -> dict[str, str]:
    (doc,) = _store(client).list_documents(Access.local())
    answer = client.post(
        "/api/ask", json={"question": QUESTION, "document_id": doc.id, "stream": False}
    )
    assert answer.status_code == 200, answer.text
    value = answer.json()
    assert value["status"] == "answered" and value["hits"], value
    return {"conversation_id": value["thread_id"], "turn_id": value["turn_id"]}


def test_a_thumb_is_stored_with_its_frozen_copy(owner: TestClient) -> None:
    alice = _token(owner, "alice")
    turn = _asked(alice)
    made = alice.post("/api/feedback", json={**turn, "rating": "down", "reason": "too long"})
    assert made.status_code == 201, made.text
    (record,) = alice.get("/api/feedback").json()["feedback"]
    assert record["id"] == made.json()["id"] and record["owner"] == "alice"
    judged = record["judged"]
    assert judged["question"] == QUESTION and judged["citations"]
    store = _store(owner)
    for citation in judged["citations"]:
        assert citation["chunk_ids"] and citation["title"] == "TRUNCATE"
        assert citation["text_sha256"] == hashlib.sha256(citation["text"].encode()).hexdigest()
        for chunk_id, digest in zip(citation["chunk_ids"], citation["chunk_sha256"], strict=True):
            chunk = store.chunk(chunk_id)
            assert citation["text"] in chunk.text
            assert hashlib.sha256(chunk.text.encode()).hexdigest() == digest
    first = judged["retrieved"][0]
    assert first["rank"] == 1 and first["keyword_rank"] is not None
    assert judged["retrieval_mode"] == "keyword" and judged["answerer"] == "extractive"
    assert record["triage"]["label"] in ("retrieval_fault", "generation_fault")
    again = alice.post("/api/feedback", json={**turn, "rating": "up"})
    assert again.status_code == 201 and again.json()["id"] == made.json()["id"]
    (changed,) = alice.get("/api/feedback").json()["feedback"]
    assert (changed["rating"], changed["reason"], changed["triage"]) == ("up", "", None)


def test_someone_elses_turn_is_not_found_and_bad_input_is_422(owner: TestClient) -> None:
    alice, bob = _token(owner, "alice"), _token(owner, "bob")
    turn = _asked(alice)
    assert bob.post("/api/feedback", json={**turn, "rating": "up"}).status_code == 404
    unknown = {**turn, "turn_id": "0" * 32, "rating": "up"}
    assert alice.post("/api/feedback", json=unknown).status_code == 404
    assert bob.get("/api/feedback").json()["feedback"] == []
    for bad in (
        {**turn, "rating": "sideways"},
        {**turn, "rating": "up", "reason": "x" * 2001},
        {**turn, "rating": "up", "reason": 5},
        {"turn_id": turn["turn_id"], "rating": "up"},
    ):
        refused = alice.post("/api/feedback", json=bad)
        assert refused.status_code == 422, (bad, refused.text)
    surrogate = json.dumps({**turn, "turn_id": "\ud800", "rating": "up"})  # JSON spells it
    sent = alice.post("/api/feedback", content=surrogate, headers=JSON_TYPE)
    assert sent.status_code == 422, sent.text
    assert alice.get("/api/feedback").json()["feedback"] == []


def test_a_session_needs_its_csrf_token(owner: TestClient) -> None:
    turn = _asked(_token(owner, "alice"))
    browser = TestClient(owner.app, base_url=BASE_URL)
    login = browser.post("/api/login", json={"user": "alice", "password": PASSWORD})
    csrf = login.json()["csrf_token"]
    body = {**turn, "rating": "up"}
    assert browser.post("/api/feedback", json=body).status_code == 403
    done = browser.post("/api/feedback", json=body, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 201


def test_the_admin_view_filters_and_hides_what_the_admin_may_not_see(owner: TestClient) -> None:
    """The first account (alice) is the site administrator; carol, a second one made so,
    may not see alice's private page; bob is no administrator at all."""
    store = _store(owner)
    alice, bob = _token(owner, "alice"), _token(owner, "bob")
    store.add_user("carol", PASSWORD, admin=True)
    carol = _token(owner, "carol")
    down = alice.post("/api/feedback", json={**_asked(alice), "rating": "down", "reason": "no"})
    alice.post("/api/feedback", json={**_asked(alice), "rating": "up"})
    assert bob.get("/api/admin/feedback").status_code == 404
    assert bob.get("/admin/feedback.js").status_code == 404
    assert carol.get("/admin/feedback.js").status_code == 200
    everyone = owner.get("/api/admin/feedback").json()["feedback"]
    assert [f["rating"] for f in everyone] == ["up", "down"]
    label = everyone[1]["triage"]["label"]
    (only,) = owner.get(f"/api/admin/feedback?label={label}").json()["feedback"]
    assert only["id"] == down.json()["id"]
    assert owner.get("/api/admin/feedback?user=bob").json()["feedback"] == []
    day = everyone[0]["created"][:10]
    assert len(owner.get(f"/api/admin/feedback?since={day}&until={day}").json()["feedback"]) == 2
    assert owner.get("/api/admin/feedback?until=2000-01-01").json()["feedback"] == []
    assert owner.get("/api/admin/feedback?since=yesterday").status_code == 400
    shown = owner.get("/api/admin/feedback").json()["feedback"][1]["judged"]["citations"]
    hidden = carol.get("/api/admin/feedback").json()["feedback"][1]["judged"]["citations"]
    assert shown[0]["text"] and shown[0]["title"] == "TRUNCATE"
    assert hidden[0]["text"] == hidden[0]["title"] == ""
    assert shown[0]["chunk_ids"] and shown[0]["document_id"] and shown[0]["text_sha256"]
    for named in ("document_id", "block_id", "text_sha256"):
        assert hidden[0][named] == "", named
    assert hidden[0]["chunk_ids"] == hidden[0]["chunk_sha256"] == []
    assert (hidden[0]["start"], hidden[0]["end"], hidden[0]["page"]) == (0, 0, None)
    view = carol.get("/api/admin/feedback").text
    doc_id = shown[0]["document_id"]
    assert doc_id not in view and shown[0]["chunk_ids"][0] not in view
    assert shown[0]["text_sha256"] not in view
