"""A scanned page the OCR time budget left unread, read now: over HTTP (the structure says
which pages are unread, the route reads one, its blocks are searchable at once, a second
read changes nothing), and the vectors that follow (the other pages' vectors reused)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from hash_embedder import HashEmbedder
from samples import scanned_tops

from askalong.config import Settings
from askalong.index.sync import SearchIndexes
from askalong.ingest.pages import PageReading
from askalong.ingest.pipeline import Ingestor
from askalong.store.backends import open_store
from askalong.types import Access

SCAN = "pdf/scanned/linn_2col_scan.pdf"  # one scanned page, two columns of English
# The top quarter of that page (a title and nine blocks): OCR in a third of the page's time.
TOP_SHARE = 0.25


@pytest.fixture
def unread(settings: Settings) -> Settings:
    """An OCR budget of nothing: every scanned page is left unread."""
    return replace(settings, ocr_budget=0.0)


@pytest.fixture
def client(unread: Settings) -> Iterator[TestClient]:
    with api_client(unread) as client:
        yield client


@pytest.mark.slow  # OCR of a page: a second or two alone, ten on a loaded machine
def test_an_unread_page_is_read_once_and_searchable(client: TestClient, evaldata: Path) -> None:
    data = scanned_tops(evaldata, 1, TOP_SHARE)
    added = client.post("/api/documents", files={"file": ("scan.pdf", data)}).json()
    doc = added["document"]
    assert doc["unread_pages"] == [1] and added["blocks"] == 0
    before = client.get(f"/api/documents/{doc['id']}").json()
    assert before["pages"][0]["unread"] is True and before["blocks"] == []

    read = client.post(f"/api/documents/{doc['id']}/pages/1/read")
    assert read.status_code == 200, read.text
    body = read.json()
    assert body["added"] is True and body["document"]["unread_pages"] == []
    blocks = body["blocks"]
    assert len(blocks) >= 5 and all(b["page"] == 1 and b["id"].startswith("p1b") for b in blocks)
    assert all(b["boxes"] for b in blocks)  # a text layer to select on
    after = client.get(f"/api/documents/{doc['id']}").json()
    assert after["pages"][0]["unread"] is False and after["blocks"] == blocks

    word = max(blocks[2]["text"].split(), key=len).strip(".,;:()")
    hits = client.get("/api/search", params={"q": word, "doc": doc["id"]}).json()
    assert any(word.lower() in hit["text"].lower() for hit in hits["hits"])

    again = client.post(f"/api/documents/{doc['id']}/pages/1/read").json()
    assert again["added"] is False and again["blocks"] == blocks
    assert client.get(f"/api/documents/{doc['id']}").json()["blocks"] == blocks


def test_a_page_not_in_the_document_is_not_found(client: TestClient, evaldata: Path) -> None:
    data = (evaldata / SCAN).read_bytes()
    doc = client.post("/api/documents", files={"file": ("scan.pdf", data)}).json()["document"]
    response = client.post(f"/api/documents/{doc['id']}/pages/2/read")
    assert response.status_code == 404
    assert "no page 2" in response.json()["error"]["message"]


@pytest.mark.slow
def test_the_read_page_gets_vectors(unread: Settings, evaldata: Path, tmp_path: Path) -> None:
    embedder = HashEmbedder()
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scanned_tops(evaldata, 1, TOP_SHARE))
    with (
        open_store(unread) as store,
        SearchIndexes(unread, store, lambda: embedder) as indexes,
        Ingestor(unread, store, indexes) as ingestor,
    ):
        document = ingestor.add(str(scan), Access.local()).document
        assert document is not None and document.unread_pages == (1,)
        reading = PageReading(unread, store, indexes)
        try:
            read = reading.read(document, 1)
        finally:
            reading.close()
        assert read.added and read.document.unread_pages == ()
        assert indexes.embed([read.document]).error is None
        vectors = indexes.vectors
        assert vectors is not None
        chunk_ids = {c.id for c in store.chunks(document.id)}
        assert chunk_ids and set(vectors.index.live_keys(document.id)) == chunk_ids
