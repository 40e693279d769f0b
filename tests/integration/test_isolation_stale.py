"""Isolation when what was visible no longer is: a document its owner made private after
someone else was answered from it, and an index that lags the store (a visibility change
half-done when a process died). The routes' re-check (``server/recheck.py``) must refuse
or hide, never show the hidden document's text, title or id."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from api_client import BASE_URL, api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.store.base import Store

SECRET = "The quillwort valve opens at forty kilopascals."
TEXT = f"# Quillwort valve\n\n{SECRET} It closes again below ten.\n"


@dataclass
class Pair:
    alice: TestClient  # owns the document
    bob: TestClient  # in alice's org: sees it while it is shared
    store: Store
    doc: str


@pytest.fixture
def pair(settings: Settings) -> Iterator[Pair]:
    with api_client(settings) as owner:
        app = owner.app
        assert isinstance(app, FastAPI)
        store: Store = app.state.askalong.library.store
        store.add_org("team", None)
        clients = {}
        for user in ("alice", "bob"):
            store.add_user(user, "isolation password 1")
            store.set_member("team", user, "member")
            _, secret = store.create_token(user)
            headers = {"Authorization": f"Bearer {secret}"}
            clients[user] = TestClient(app, base_url=BASE_URL, headers=headers)
        made = clients["alice"].post("/api/documents", files={"file": ("valve.md", TEXT.encode())})
        doc = made.json()["document"]["id"]
        shared = clients["alice"].put(
            f"/api/documents/{doc}/visibility", json={"visibility": "org"}
        )
        assert shared.status_code == 200
        yield Pair(clients["alice"], clients["bob"], store, doc)


def chat(client: TestClient, question: str) -> dict:
    response = client.post("/api/chat", json={"question": question, "stream": False})
    assert response.status_code == 200, response.text
    answer: dict = response.json()
    return answer


def unshare_in_store_only(pair: Pair) -> None:
    """The store's half of a visibility change; the keyword index still says ``org``."""
    alice = pair.store.access_of("alice")
    pair.store.set_visibility(pair.doc, "private", alice)


def test_a_lagging_index_never_lets_the_chat_cite_a_now_private_document(pair: Pair) -> None:
    before = chat(pair.bob, "When does the quillwort valve open?")
    assert pair.doc in {s["document_id"] for s in before["sources"]}  # the probe can fail
    unshare_in_store_only(pair)
    searched = pair.bob.get("/api/search", params={"q": "quillwort valve"})
    assert searched.status_code == 404 or not searched.json()["hits"]
    streamed = pair.bob.post(
        "/api/chat", json={"question": "When does the quillwort valve open?", "stream": True}
    )
    for response in (
        pair.bob.post(
            "/api/chat", json={"question": "When does the quillwort valve open?", "stream": False}
        ),
        streamed,
    ):
        assert SECRET not in response.text and pair.doc not in response.text, response.text[:500]


def test_a_conversation_hides_what_its_asker_may_no_longer_see(pair: Pair) -> None:
    answer = chat(pair.bob, "When does the quillwort valve open?")
    conversation = answer["conversation_id"]
    assert SECRET[:30] in pair.bob.get(f"/api/threads/{conversation}").text  # can fail
    made_private = pair.alice.put(
        f"/api/documents/{pair.doc}/visibility", json={"visibility": "private"}
    )
    assert made_private.status_code == 200
    for path in (f"/api/threads/{conversation}", f"/api/threads/{conversation}/export"):
        shown = pair.bob.get(path)
        assert SECRET not in shown.text and pair.doc not in shown.text, (path, shown.text[:500])
    listed = pair.bob.get("/api/conversations")
    assert SECRET not in listed.text


BOB_NOTE = "# Tide gauge\n\nThe harbour tide gauge reads every six minutes.\n"


def test_a_conversation_list_counts_only_the_turns_its_asker_is_shown(pair: Pair) -> None:
    """A conversation of two turns, one from a document made private since: the list's
    ``turns`` is the count ``GET /api/threads/{id}`` shows (one), not the two stored — the
    count would tell that a hidden turn exists."""
    hidden = chat(pair.bob, "When does the quillwort valve open?")
    conversation = hidden["conversation_id"]
    made = pair.bob.post("/api/documents", files={"file": ("gauge.md", BOB_NOTE.encode())})
    assert made.status_code == 201, made.text
    follow = {"question": "How often does the tide gauge read?", "stream": False}
    kept = pair.bob.post("/api/chat", json={**follow, "conversation_id": conversation})
    assert kept.status_code == 200, kept.text
    assert made.json()["document"]["id"] in {s["document_id"] for s in kept.json()["sources"]}
    assert _listed_turns(pair.bob, conversation) == 2  # both shown while the valve is shared
    made_private = pair.alice.put(
        f"/api/documents/{pair.doc}/visibility", json={"visibility": "private"}
    )
    assert made_private.status_code == 200
    shown = pair.bob.get(f"/api/threads/{conversation}").json()["turns"]
    assert [t["question"] for t in shown] == [follow["question"]]
    assert _listed_turns(pair.bob, conversation) == len(shown)


def _listed_turns(client: TestClient, conversation: str) -> int:
    listed = client.get("/api/conversations").json()["conversations"]
    [entry] = [c for c in listed if c["id"] == conversation]
    count: int = entry["turns"]
    return count
