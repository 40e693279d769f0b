"""The HTTP API in-process: documents, structure, page images, originals, search, errors,
security headers, and the ask/threads contract stubs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.server import create_app
from askalong.server.pages import snap_width

PAPER = "pdf/en_2col/N18-3011.pdf"
MANUAL = "manuals/postgresql-15-html/sql-select.html"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def upload(client: TestClient, path: Path, name: str | None = None) -> dict[str, object]:
    response = client.post("/api/documents", files={"file": (name or path.name, path.read_bytes())})
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


def test_upload_list_structure_delete(client: TestClient, evaldata: Path) -> None:
    added = upload(client, evaldata / PAPER, name="../../etc/passwd")
    doc = added["document"]
    assert isinstance(doc, dict)
    assert added["status"] == "added" and doc["source"] == "passwd"  # a name, never a path
    assert upload(client, evaldata / PAPER)["status"] == "exists"
    assert [d["id"] for d in client.get("/api/documents").json()["documents"]] == [doc["id"]]

    structure = client.get(f"/api/documents/{doc['id']}").json()
    assert len(structure["pages"]) == doc["pages"] == 8
    assert structure["pages"][0]["width"] == pytest.approx(595.28, abs=0.01)
    first = structure["blocks"][0]
    assert first["page"] == 1 and first["section_path"]
    x0, top, x1, bottom, start, end = first["boxes"][0]
    assert x0 < x1 and top < bottom and first["text"][start:end]
    assert structure["outline"][0]["block_id"] == first["id"]

    assert client.delete(f"/api/documents/{doc['id']}").status_code == 204
    assert client.get("/api/documents").json()["documents"] == []
    assert client.get(f"/api/documents/{doc['id']}").status_code == 404


def test_page_image_is_rendered_cached_and_immutable(
    client: TestClient, evaldata: Path, settings: Settings
) -> None:
    doc = upload(client, evaldata / PAPER)["document"]
    assert isinstance(doc, dict)
    response = client.get(f"/api/documents/{doc['id']}/pages/2.png?width=700")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(response.content[16:20], "big") == snap_width(700) == 800
    assert "immutable" in response.headers["cache-control"]
    cached = list((settings.home / "cache" / "pages" / str(doc["id"])).glob("*.png"))
    assert [p.name for p in cached] == ["2-800.png"]
    assert client.get(f"/api/documents/{doc['id']}/pages/9.png").status_code == 404


def test_snap_width_clamps_and_snaps() -> None:
    assert [snap_width(w) for w in (1, 240, 241, 1000, 5000)] == [240, 240, 320, 1200, 2400]


def test_html_document_has_no_pages_but_an_original(client: TestClient, evaldata: Path) -> None:
    doc = upload(client, evaldata / MANUAL)["document"]
    assert isinstance(doc, dict)
    assert client.get(f"/api/documents/{doc['id']}/pages/1.png").status_code == 404
    original = client.get(f"/api/documents/{doc['id']}/original")
    assert original.content == (evaldata / MANUAL).read_bytes()
    assert original.headers["content-disposition"].startswith('attachment; filename="SELECT.html"')


def test_search_finds_the_passage_with_spans(client: TestClient, evaldata: Path) -> None:
    doc = upload(client, evaldata / PAPER)["document"]
    assert isinstance(doc, dict)
    result = client.get("/api/search", params={"q": "entity linking", "doc": doc["id"]}).json()
    assert result["routes"] == ["keyword"] and result["hits"]
    hit = result["hits"][0]
    assert hit["document_id"] == doc["id"] and "link" in hit["text"].lower()
    structure = client.get(f"/api/documents/{doc['id']}").json()
    texts = {b["id"]: b["text"] for b in structure["blocks"]}
    span = hit["spans"][0]
    assert texts[span["block_id"]][span["start"] : span["end"]] in hit["text"]


def test_errors_are_json_with_type_and_message(client: TestClient) -> None:
    missing = client.get("/api/documents/abcdef12")
    assert missing.status_code == 404
    assert missing.json()["error"] == {
        "type": "NotFound",
        "message": "no such document",
        "source": "abcdef12",
    }
    empty = client.get("/api/search", params={"q": "  "})
    assert empty.status_code == 400 and empty.json()["error"]["type"] == "InputError"
    invalid = client.get("/api/search")
    assert invalid.status_code == 422 and "q" in invalid.json()["error"]["message"]
    garbage = client.post("/api/documents", files={"file": ("x.pdf", b"\x00\x01 not a document")})
    assert garbage.status_code == 400 and garbage.json()["error"]["source"] == "x.pdf"
    no_file = client.post("/api/documents", data={"other": "1"})
    assert no_file.status_code == 400 and "file" in no_file.json()["error"]["message"]


def test_upload_over_the_limit_is_refused_while_reading(settings: Settings) -> None:
    small = replace(settings, max_file_mb=0.5)
    with TestClient(create_app(small)) as client:
        response = client.post("/api/documents", files={"file": ("big.txt", b"a " * 400_000)})
        assert response.status_code == 413
        assert response.json()["error"]["type"] == "TooLarge"
        assert "ASKALONG_MAX_FILE_MB" in response.json()["error"]["message"]
        assert client.get("/api/documents").json()["documents"] == []


def test_security_headers_and_static_reader(client: TestClient) -> None:
    for path in ("/", "/reader.html", "/api/documents"):
        response = client.get(path)
        assert response.status_code == 200
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "object-src 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    assert '<script type="module" src="/library.js">' in client.get("/").text


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/documents", "/api/documents/{doc}", "/api/search", "/api/ask"):
        assert path in paths
    assert "multipart/form-data" in paths["/api/documents"]["post"]["requestBody"]["content"]
    assert client.get("/docs").status_code == 200


def test_ask_and_threads_say_not_available_yet(client: TestClient) -> None:
    body = {"document_id": "x", "question": "", "intent": "explain"}
    for response in (
        client.post("/api/ask", json=body),
        client.get("/api/documents/x/threads"),
        client.get("/api/threads/t1"),
    ):
        assert response.status_code == 501
        assert response.json()["error"]["message"] == "answering is not available yet"
