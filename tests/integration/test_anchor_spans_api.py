"""``POST /api/ask`` with an anchor over two blocks (``anchor.spans``): the thread event
and the stored turn keep every span, the anchor passage holds both blocks, and a span in a
block the document lacks is refused naming it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from fastapi.testclient import TestClient

from askalong.config import Settings

PAPER = "pdf/en_2col/N18-3011.pdf"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def two_paragraphs(structure: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    body = [b for b in structure["blocks"] if b["kind"] == "paragraph" and len(b["text"]) > 100]
    return body[2], body[3]


def test_an_anchor_over_two_blocks_keeps_and_uses_both(client: TestClient, evaldata: Path) -> None:
    data = (evaldata / PAPER).read_bytes()
    doc_id = client.post("/api/documents", files={"file": ("p.pdf", data)}).json()["document"]["id"]
    first, second = two_paragraphs(client.get(f"/api/documents/{doc_id}").json())
    spans = [
        {"block_id": first["id"], "start": len(first["text"]) - 50, "end": len(first["text"])},
        {"block_id": second["id"], "start": 0, "end": 60},
    ]
    anchor = {"selected_text": first["text"][-50:] + " " + second["text"][:60], "spans": spans}
    body = {"document_id": doc_id, "intent": "explain", "anchor": anchor}
    response = client.post("/api/ask", json=body)
    events = [
        (m.split("\n")[0][7:], json.loads(m.split("\n")[1][6:]))
        for m in response.text.strip().split("\n\n")
    ]
    thread = events[0][1]["anchor"]
    assert (thread["block_id"], thread["start"]) == (first["id"], spans[0]["start"])
    assert thread["spans"] == spans
    passage = next(d for n, d in events if n == "retrieval")["passages"][0]
    assert passage["origin"] == "anchor"
    assert {s["block_id"] for s in passage["spans"]} >= {first["id"], second["id"]}

    thread_id = events[0][1]["thread_id"]
    turn = client.get(f"/api/threads/{thread_id}").json()["turns"][0]
    assert turn["anchor"]["spans"] == spans

    spans[1]["block_id"] = "nope"
    refused = client.post("/api/ask", json={**body, "stream": False})
    assert refused.status_code == 404 and "nope" in refused.json()["error"]["message"]
