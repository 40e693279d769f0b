"""Isolation of an upload whose bytes another user holds privately. A document's id is its
content's hash, one per library — except beside a copy the uploader may not see: then the
upload becomes a copy of their own (``Ingestor.placed_id``), added as any new file is, so
nothing tells them that someone holds exactly these bytes (it was refused, which did)."""

from __future__ import annotations

from api_client import BASE_URL, api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient

from askalong.config import Settings

BODY = b"# Merger plan\n\nThe quillwort deal closes on the ninth.\n"


def clients(owner: TestClient) -> dict[str, TestClient]:
    app = owner.app
    assert isinstance(app, FastAPI)
    store = app.state.askalong.library.store
    made = {}
    for user in ("alice", "bob"):
        store.add_user(user, "isolation password 1")
        _, secret = store.create_token(user)
        headers = {"Authorization": f"Bearer {secret}"}
        made[user] = TestClient(app, base_url=BASE_URL, headers=headers)
    return made


def test_the_same_bytes_as_anothers_private_file_tell_nothing(settings: Settings) -> None:
    with api_client(settings) as owner:
        users = clients(owner)
        fresh = users["bob"].post("/api/documents", files={"file": ("other.md", b"# Other\n")})
        assert fresh.status_code == 201 and fresh.json()["status"] == "added"
        kept = users["alice"].post("/api/documents", files={"file": ("plan.md", BODY)})
        assert kept.status_code == 201 and kept.json()["document"]["visibility"] == "private"
        again = users["bob"].post("/api/documents", files={"file": ("mine.md", BODY)})
        assert again.status_code == 201 and again.json()["status"] == "added", again.text
        alices, bobs = kept.json()["document"], again.json()["document"]
        assert bobs["id"] != alices["id"] and bobs["title"] == "Merger plan"
        # each sees their own copy alone; the same bytes again are each one's "exists"
        for user, mine, theirs in (("alice", alices, bobs), ("bob", bobs, alices)):
            listed = {d["id"] for d in users[user].get("/api/documents").json()["documents"]}
            assert mine["id"] in listed and theirs["id"] not in listed
            assert users[user].get(f"/api/documents/{theirs['id']}").status_code == 404
            repeat = users[user].post("/api/documents", files={"file": ("x.md", BODY)})
            assert repeat.json()["status"] == "exists"
            assert repeat.json()["document"]["id"] == mine["id"]
        # removing one copy leaves the other's original file in place
        assert users["bob"].delete(f"/api/documents/{bobs['id']}").status_code in (200, 204)
        original = users["alice"].get(f"/api/documents/{alices['id']}/original")
        assert original.status_code == 200 and original.content == BODY
