"""Long ingestion reports real progress: the guarded parser relays the pages it has parsed
and read by OCR (throttled), and an upload that accepts ``text/event-stream`` streams them
as ``progress`` events before ``done`` (or ``error``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from samples import scanned_tops

from askalong.config import Settings
from askalong.parse.guard import ParserGuard
from askalong.parse.progress import Progress

PAPER = "pdf/en_2col/N18-3011.pdf"  # 8 pages


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def events_of(text: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for message in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in message.splitlines())
        out.append((fields["event"], json.loads(fields["data"])))
    return out


def test_a_streamed_upload_reports_pages_parsed_then_the_result(
    client: TestClient, evaldata: Path
) -> None:
    data = (evaldata / PAPER).read_bytes()
    response = client.post(
        "/api/documents",
        files={"file": ("paper.pdf", data)},
        headers={"Accept": "text/event-stream"},
    )
    assert response.status_code == 201
    assert response.headers["content-type"].startswith("text/event-stream")
    events = events_of(response.text)
    names = [name for name, _ in events]
    assert names[-1] == "done" and set(names[:-1]) == {"progress"}
    parsed = [d for n, d in events if n == "progress" and d["stage"] == "parse"]
    assert parsed[0] == {"stage": "parse", "done": 0, "total": 8}
    assert parsed[-1] == {"stage": "parse", "done": 8, "total": 8}
    assert [d["done"] for d in parsed] == sorted(d["done"] for d in parsed)
    done = events[-1][1]
    assert done["status"] == "added" and done["blocks"] == len(
        client.get(f"/api/documents/{done['document']['id']}").json()["blocks"]
    )
    # the plain JSON answer is unchanged for a client that does not ask for events
    again = client.post("/api/documents", files={"file": ("paper.pdf", data)})
    assert again.status_code == 201 and again.json()["status"] == "exists"


def test_a_failed_streamed_upload_ends_with_an_error_event(client: TestClient) -> None:
    response = client.post(
        "/api/documents",
        files={"file": ("broken.pdf", b"%PDF-1.7\nnot really")},
        headers={"Accept": "text/event-stream"},
    )
    name, data = events_of(response.text)[-1]
    assert name == "error" and data["type"] == "CorruptDocument"
    assert data["source"] == "broken.pdf"


@pytest.mark.slow  # OCR of two pages (a few lines each: what counts is the relay)
def test_the_parser_child_relays_pages_parsed_and_read_by_ocr(evaldata: Path) -> None:
    reports: list[Progress] = []
    with ParserGuard(timeout=300) as guard:
        parsed = guard.read(scanned_tops(evaldata, 2), source="scan.pdf", progress=reports.append)
    assert parsed.unread_pages == ()
    assert reports[0] == Progress("parse", 0, 2) and Progress("parse", 2, 2) in reports
    ocr = [r for r in reports if r.stage == "ocr"]
    assert ocr[0] == Progress("ocr", 0, 2) and ocr[-1] == Progress("ocr", 2, 2)
