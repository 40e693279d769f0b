"""*Read it now* in the background: the read starts and the request returns at once, the
reader asks how it goes (reading, with the seconds so far; then read, with the page's
blocks; or failed, saying why). The OCR child is the boundary: a stand-in page reader
that reads only when the test lets it, so nothing waits on real OCR."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.errors import ParseTimeout
from askalong.types import Block, LineBox

SCAN = "pdf/scanned/linn_2col_scan.pdf"  # one scanned page
TEXT = "Recording a Sequence"


class HeldReader:
    """Reads a page once ``release`` is set: its one block, or ``error`` raised."""

    def __init__(self, error: Exception | None = None) -> None:
        self.release = threading.Event()
        self.error = error
        self.calls = 0

    def read(self, original: str, page: int, source: str) -> tuple[Block, ...]:
        self.calls += 1
        assert self.release.wait(30)
        if self.error is not None:
            raise self.error
        box = LineBox(72.0, 72.0, 200.0, 84.0, 0, len(TEXT))
        return (Block(f"p{page}b0", "paragraph", TEXT, 0, page=page, boxes=(box,)),)

    def close(self) -> None:
        self.release.set()


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(replace(settings, ocr_budget=0.0)) as client:
        yield client


def _held(client: TestClient, evaldata: Path, reader: HeldReader) -> str:
    state: Any = client.app.state.askalong  # type: ignore[attr-defined]
    state.library.pages.reader = reader
    data = (evaldata / SCAN).read_bytes()
    document = client.post("/api/documents", files={"file": ("scan.pdf", data)}).json()
    assert document["document"]["unread_pages"] == [1]
    return str(document["document"]["id"])


def _finished(client: TestClient, address: str) -> dict[str, Any]:
    for _ in range(600):  # the read's thread stores the page after the reader returns
        body: dict[str, Any] = client.get(address).json()
        if body["state"] != "reading":
            return body
        time.sleep(0.05)
    raise AssertionError("the read never finished")


def test_the_read_runs_in_the_background_and_reports_how_it_goes(
    client: TestClient, evaldata: Path
) -> None:
    reader = HeldReader()
    address = f"/api/documents/{_held(client, evaldata, reader)}/pages/1/reading"
    started = client.post(address)
    assert started.status_code == 202, started.text
    assert started.json()["state"] == "reading" and started.json()["read"] is None
    again = client.post(address).json()  # asked twice while it runs: the same read
    going = client.get(address).json()
    assert again["state"] == going["state"] == "reading" and going["seconds"] >= 0
    reader.release.set()
    done = _finished(client, address)
    assert done["state"] == "read" and reader.calls == 1
    assert [b["text"] for b in done["read"]["blocks"]] == [TEXT]
    assert done["read"]["document"]["unread_pages"] == []


def test_a_read_that_runs_out_of_time_says_so(client: TestClient, evaldata: Path) -> None:
    late = ParseTimeout("page 1 was not read in time (OCR took over 360 s)", source="scan")
    reader = HeldReader(error=late)
    address = f"/api/documents/{_held(client, evaldata, reader)}/pages/1/reading"
    assert client.post(address).status_code == 202
    reader.release.set()
    failed = _finished(client, address)
    assert failed["state"] == "failed" and failed["read"] is None
    assert failed["message"] == "page 1 was not read in time (OCR took over 360 s)"


def test_asking_about_a_page_no_read_was_started_for_is_404(
    client: TestClient, evaldata: Path
) -> None:
    document_id = _held(client, evaldata, HeldReader())
    assert client.get(f"/api/documents/{document_id}/pages/1/reading").status_code == 404
    assert client.post(f"/api/documents/{document_id}/pages/9/reading").status_code == 404
