"""``GET /api/conversations``: the asker's chat conversations only (a reader thread, on one
document or several, is not one), newest first, private to their owner, and renamed or
deleted through the thread routes."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from api_client import acting_as, api_client
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.types import Access

NOTES = {
    "tides.md": b"# Tides\n\nTides follow the Moon: its pull raises the sea twice a day.\n",
    "winds.md": b"# Winds\n\nTrade winds blow from the east toward the equator all year.\n",
}
ALICE, BOB = Access(user="alice"), Access(user="bob")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        for name, text in NOTES.items():
            assert client.post("/api/documents", files={"file": (name, text)}).status_code == 201
        yield client


def chatted(client: TestClient, question: str, conversation: str | None = None) -> str:
    body = {"question": question, "conversation_id": conversation, "stream": False}
    response = client.post("/api/chat", json=body)
    assert response.status_code == 200, response.text
    conversation_id: str = response.json()["conversation_id"]
    return conversation_id


def listed(client: TestClient) -> list[dict[str, object]]:
    response = client.get("/api/conversations")
    assert response.status_code == 200, response.text
    conversations: list[dict[str, object]] = response.json()["conversations"]
    return conversations


def test_only_chat_conversations_are_listed_newest_first(client: TestClient) -> None:
    ids = [d["id"] for d in client.get("/api/documents").json()["documents"]]
    for body in (
        {"document_id": ids[0], "question": "What do tides follow?"},
        {"document_id": ids[0], "documents": ids[1:], "question": "Where do winds blow?"},
    ):
        assert client.post("/api/ask", json={**body, "stream": False}).status_code == 200
    first = chatted(client, "What do tides follow?")
    second = chatted(client, "Where do trade winds blow?")
    time.sleep(1.1)  # ``updated`` counts seconds
    chatted(client, "And the tides?", first)  # a follow-up moves the first up again
    conversations = listed(client)
    assert [c["id"] for c in conversations] == [first, second]
    assert conversations[0]["title"] == "What do tides follow?"
    assert conversations[0]["turns"] == 2 and conversations[1]["turns"] == 1
    assert {c["document_id"] for c in conversations} == {None}


def test_conversations_are_private_and_follow_rename_and_delete(client: TestClient) -> None:
    mine = chatted(acting_as(client, ALICE), "What do tides follow?")
    acting_as(client, BOB)
    assert listed(client) == []
    assert client.get(f"/api/threads/{mine}").status_code == 404
    assert client.delete(f"/api/threads/{mine}").status_code == 404
    acting_as(client, ALICE)
    renamed = client.patch(f"/api/threads/{mine}", json={"title": "Moon and sea"})
    assert renamed.status_code == 200
    assert [c["title"] for c in listed(client)] == ["Moon and sea"]
    assert client.delete(f"/api/threads/{mine}").status_code == 204
    assert listed(client) == []
