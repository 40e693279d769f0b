"""The collection routes and the ``collection`` field of ask and search, over eight real
PostgreSQL manual pages added as a folder (plus a stray document outside it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from click.testing import CliRunner
from fastapi import FastAPI
from fastapi.testclient import TestClient
from samples import MANUAL_PAGES, manual_folder

from askalong.cli import main
from askalong.config import Settings
from askalong.server.deps import current_access
from askalong.types import Access

NAME = "pg-transactions"
QUESTION = "What does ROLLBACK do?"


def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def members(settings: Settings, evaldata: Path, tmp_path: Path) -> set[str]:
    (tmp_path / "stray.md").write_text("# Rollback\n\nROLLBACK aborts the current transaction.\n")
    cli_json("add", "--no-embed", str(tmp_path / "stray.md"))
    added = cli_json("add", "--no-embed", str(manual_folder(evaldata, tmp_path, NAME)))
    return {r["document"]["id"] for r in added["results"]}


@pytest.fixture
def client(settings: Settings, members: set[str]) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def test_collections_are_listed_and_opened_by_name_or_id(
    client: TestClient, members: set[str]
) -> None:
    [listed] = client.get("/api/collections").json()["collections"]
    assert listed["name"] == NAME and listed["documents"] == len(MANUAL_PAGES)
    by_name = client.get(f"/api/collections/{NAME}").json()
    by_id = client.get(f"/api/collections/{listed['id']}").json()
    assert by_name == by_id and by_name["collection"] == listed
    assert {d["id"] for d in by_name["documents"]} == members
    missing = client.get("/api/collections/nope")
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "NotFound"


def test_ask_a_collection_as_one(client: TestClient, members: set[str]) -> None:
    body = {"collection": NAME, "question": QUESTION, "stream": False}
    answer = client.post("/api/ask", json=body).json()
    assert answer["status"] == "answered" and answer["quotes"]
    assert {q["document_id"] for q in answer["quotes"]} <= members
    streamed = client.post("/api/ask", json={**body, "stream": True})
    assert streamed.status_code == 200
    done = [line for line in streamed.text.splitlines() if line.startswith("event: done")]
    assert len(done) == 1


def test_search_a_collection(client: TestClient, members: set[str]) -> None:
    found = client.get("/api/search", params={"q": "rollback transaction", "k": 20}).json()
    assert {h["document_id"] for h in found["hits"]} - members  # the stray one matches
    inside = client.get(
        "/api/search", params={"q": "rollback transaction", "k": 20, "collection": NAME}
    ).json()
    assert inside["hits"] and {h["document_id"] for h in inside["hits"]} <= members


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"collection": NAME, "question": QUESTION, "anchor": {"block_id": "b1"}}, 400),
        ({"collection": "nope", "question": QUESTION}, 404),
    ],
)
def test_bad_ask_bodies_are_refused(
    client: TestClient, body: dict[str, object], status: int
) -> None:
    response = client.post("/api/ask", json={**body, "stream": False})
    assert response.status_code == status, response.text
    assert response.json()["error"]["message"]


def test_a_question_naming_no_document_asks_every_document_the_caller_may_read(
    client: TestClient, members: set[str]
) -> None:
    mine = client.post("/api/ask", json={"question": QUESTION, "stream": False})
    assert mine.status_code == 200, mine.text
    quoted = {q["document_id"] for q in mine.json()["quotes"]}
    assert quoted & members and quoted - members  # the folder's pages and the stray note
    app = client.app
    assert isinstance(app, FastAPI)
    app.dependency_overrides[current_access] = lambda: Access(user="bob")
    theirs = client.post("/api/ask", json={"question": QUESTION, "stream": False})
    assert theirs.status_code == 200, theirs.text
    seen = theirs.json()  # none of the documents is bob's: nothing found, nothing quoted
    assert seen["status"] == "not_covered" and not seen["quotes"] and not seen["hits"]


def test_another_user_sees_no_collection_of_mine(client: TestClient) -> None:
    app = client.app
    assert isinstance(app, FastAPI)
    listed = client.get("/api/collections").json()["collections"][0]
    app.dependency_overrides[current_access] = lambda: Access(user="bob")
    assert client.get("/api/collections").json()["collections"] == []
    assert client.get(f"/api/collections/{listed['id']}").status_code == 404
    asked = client.post("/api/ask", json={"collection": listed["id"], "question": QUESTION})
    assert asked.status_code == 404
    searched = client.get("/api/search", params={"q": "rollback", "collection": NAME})
    assert searched.status_code == 404


def test_ask_documents_picked_by_id_as_one(client: TestClient, members: set[str]) -> None:
    """``documents``: the library's "ask several", beside or without ``document_id``."""
    stray = next(d["id"] for d in client.get("/api/documents").json()["documents"]
                 if d["id"] not in members)  # fmt: skip
    rollback = next(
        d["id"]
        for d in client.get(f"/api/collections/{NAME}").json()["documents"]
        if d["title"].startswith("ROLLBACK")
    )
    picked = [stray, rollback]
    body = {"documents": picked, "question": QUESTION, "stream": False}
    answer = client.post("/api/ask", json=body).json()
    assert answer["status"] == "answered" and answer["anchor_set_aside"] is None
    assert {q["document_id"] for q in answer["quotes"]} <= set(picked)
    unknown = client.post("/api/ask", json={**body, "documents": [stray, "ffffffffffff"]})
    assert unknown.status_code == 404


def test_whole_drops_the_thread_anchor_and_contradicts_an_anchor(
    client: TestClient, members: set[str]
) -> None:
    doc = next(d["id"] for d in client.get("/api/documents").json()["documents"]
               if d["id"] not in members)  # fmt: skip
    anchor = {"selected_text": "ROLLBACK aborts the current transaction."}
    first = {"document_id": doc, "question": QUESTION, "anchor": anchor, "stream": False}
    anchored = client.post("/api/ask", json=first).json()
    assert anchored["anchor"]["block_id"]
    follow = {"document_id": doc, "question": QUESTION, "stream": False, "whole": True}
    whole = client.post("/api/ask", json={**follow, "thread_id": anchored["thread_id"]}).json()
    assert whole["anchor"] is None and whole["thread_id"] == anchored["thread_id"]
    both = client.post("/api/ask", json={**first, "whole": True})
    assert both.status_code == 400 and both.json()["error"]["source"] == "anchor"


def test_compare_targets_of_a_block(client: TestClient, members: set[str]) -> None:
    doc = next(iter(sorted(members)))
    blocks = client.get(f"/api/documents/{doc}").json()["blocks"]
    paragraph = next(b for b in blocks if b["kind"] == "paragraph")
    found = client.get(f"/api/documents/{doc}/compare-targets", params={"block": paragraph["id"]})
    assert found.status_code == 200 and isinstance(found.json()["targets"], list)
    headings = client.get(f"/api/documents/{doc}/compare-targets").json()["targets"]
    assert headings and len(headings) <= 8
    missing = client.get(f"/api/documents/{doc}/compare-targets", params={"block": "nope"})
    assert missing.status_code == 404
