"""Per-user limits on the HTTP server (issue 14): a burst over the per-minute limit is 429
with ``Retry-After`` and ``retry_after``, and allowed again once the window has passed (the
clock injected, no minute slept); a third question streaming at once for one user is 429
while another user asks freely; unfinished uploads past their limit answer the same way.
Every limit is per user, never global."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import httpx
import pytest
from api_client import api_client
from chat_server import Reply, ScriptedChatServer
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server_accounts import store_of as store_of_client
from test_server_accounts import with_token
from uvicorn_thread import served

from askalong.config import Settings
from askalong.server.app import create_app
from askalong.store.base import Store

PASSWORD = "a long secret phrase 7"
NOTE = b"# Tides\n\nTides follow the Moon: its gravity pulls the oceans twice a day.\n"
START = 1_000_000 * 60 + 15.0  # 15 s into a minute


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def store_of(app: FastAPI) -> Store:
    store: Store = app.state.askalong.library.store
    return store


def token_client(owner: TestClient, user: str) -> TestClient:
    """A client with a new token of ``user`` (made if new)."""
    if store_of_client(owner).get_user(user) is None:
        store_of_client(owner).add_user(user, PASSWORD)
    return with_token(owner, user)


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


def test_a_burst_over_the_minute_is_429_then_allowed_after_the_window(
    settings: Settings, clock: Clock
) -> None:
    limited = replace(settings, requests_per_minute=5)
    with api_client(limited, create_app(limited, clock=clock)) as owner:
        alice, bob = token_client(owner, "alice"), token_client(owner, "bob")
        assert [alice.get("/api/documents").status_code for _ in range(5)] == [200] * 5
        refused = alice.get("/api/documents")
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "45"
        body = refused.json()
        assert body["retry_after"] == 45 and body["error"]["type"] == "TooMany"
        assert "ASKALONG_REQUESTS_PER_MINUTE" in body["error"]["message"]
        assert bob.get("/api/documents").status_code == 200  # per user, not global
        assert owner.get("/api/documents").status_code == 200  # the owner: no limit
        clock.now += 44
        assert alice.get("/api/documents").status_code == 429
        assert alice.get("/api/documents").headers["Retry-After"] == "1"
        clock.now += 1  # the next minute
        assert [alice.get("/api/documents").status_code for _ in range(5)] == [200] * 5
        assert alice.get("/api/documents").status_code == 429


def test_the_owner_is_limited_by_its_own_setting(settings: Settings, clock: Clock) -> None:
    limited = replace(settings, owner_requests_per_minute=3)
    with api_client(limited, create_app(limited, clock=clock)) as owner:
        assert [owner.get("/api/documents").status_code for _ in range(4)] == [200] * 3 + [429]
        assert "ASKALONG_OWNER_REQUESTS_PER_MINUTE" in owner.get("/api/documents").text
        assert owner.get("/").status_code == 200  # the reader's pages are not counted


def test_unfinished_uploads_over_the_limit_are_429_with_retry_after(settings: Settings) -> None:
    limited = replace(settings, upload_pending=1)
    with api_client(limited) as owner:
        alice, bob = token_client(owner, "alice"), token_client(owner, "bob")
        tus = {"Tus-Resumable": "1.0.0", "Upload-Length": "10"}
        assert alice.post("/api/uploads", headers=tus).status_code == 201
        refused = alice.post("/api/uploads", headers=tus)
        assert refused.status_code == 429
        assert refused.json()["retry_after"] == int(refused.headers["Retry-After"]) > 0
        assert bob.post("/api/uploads", headers=tus).status_code == 201


@dataclass(frozen=True)
class Live:
    url: str
    app: FastAPI

    def token(self, user: str) -> dict[str, str]:
        store = store_of(self.app)
        if store.get_user(user) is None:
            store.add_user(user, PASSWORD)
        _, secret = store.create_token(user)
        return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def slow_model() -> Iterator[ScriptedChatServer]:
    """Every answer takes five seconds to come: the questions stay running meanwhile (two
    seconds left a loaded machine too little time to send the third question before the
    first was answered)."""
    answer = '{"answer": "Twice a day [1].", "citations": [1]}'
    with ScriptedChatServer(default=Reply.text(answer, delay=5.0)) as server:
        yield server


@pytest.fixture
def live(settings: Settings, slow_model: ScriptedChatServer) -> Iterator[Live]:
    """A real uvicorn server on loopback (streams need one), answering with the model."""
    configured = replace(
        settings,
        answerer="openai",
        llm_base_url=slow_model.url,
        llm_model="scripted",
        llm_judge=False,
        concurrent_questions=2,
    )
    app = create_app(configured)
    with served(app) as port:
        yield Live(f"http://127.0.0.1:{port}", app)


def add_note(live: Live, headers: dict[str, str], text: bytes) -> str:
    added = httpx.post(
        live.url + "/api/documents", files={"file": ("tides.md", text)}, headers=headers
    )
    assert added.status_code == 201, added.text
    document_id: str = added.json()["document"]["id"]
    return document_id


def start_question(live: Live, headers: dict[str, str], document_id: str) -> threading.Thread:
    """A streamed question read to its end in a thread of its own."""
    body = {"document_id": document_id, "question": "How often do tides come?"}

    def read() -> None:
        with httpx.stream(
            "POST", live.url + "/api/ask", json=body, headers=headers, timeout=30
        ) as response:
            assert response.status_code == 200, response.read()
            response.read()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_a_third_question_at_once_is_429_while_another_user_asks(
    live: Live, slow_model: ScriptedChatServer
) -> None:
    alice, bob = live.token("alice"), live.token("bob")
    document_id = add_note(live, alice, NOTE)
    bobs = add_note(live, bob, NOTE + b"\nSpring tides come when the Sun and Moon line up.\n")
    running = [start_question(live, alice, document_id) for _ in range(2)]
    deadline = time.monotonic() + 30  # a loaded machine starts them late
    while len(slow_model.chat_bodies) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)  # both questions are waiting for the model now
    assert len(slow_model.chat_bodies) == 2
    body = {"document_id": document_id, "question": "Why tides?", "stream": False}
    third = httpx.post(live.url + "/api/ask", json=body, headers=alice, timeout=30)
    assert third.status_code == 429, third.text
    assert third.json()["retry_after"] == int(third.headers["Retry-After"]) > 0
    assert "ASKALONG_CONCURRENT_QUESTIONS" in third.json()["error"]["message"]
    asked = {**body, "document_id": bobs}
    others = httpx.post(live.url + "/api/ask", json=asked, headers=bob, timeout=30)
    assert others.status_code == 200, others.text  # another user is not held up
    for thread in running:
        thread.join(30)
    again = httpx.post(live.url + "/api/ask", json=body, headers=alice, timeout=30)
    assert again.status_code == 200, again.text  # the slots were given back


def test_the_chat_shares_the_question_limit_with_ask(
    live: Live, slow_model: ScriptedChatServer
) -> None:
    alice = live.token("alice")
    document_id = add_note(live, alice, NOTE)
    running = [start_question(live, alice, document_id) for _ in range(2)]
    deadline = time.monotonic() + 30
    while len(slow_model.chat_bodies) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(slow_model.chat_bodies) == 2
    chat = {"question": "How often do tides come?", "stream": False}
    third = httpx.post(live.url + "/api/chat", json=chat, headers=alice, timeout=30)
    assert third.status_code == 429, third.text
    assert "ASKALONG_CONCURRENT_QUESTIONS" in third.json()["error"]["message"]
    assert len(slow_model.chat_bodies) == 2  # the chat never reached the model
    for thread in running:
        thread.join(30)
