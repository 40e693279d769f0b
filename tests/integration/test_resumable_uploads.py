"""Resumable uploads over tus 1.0, in process: the protocol's answers (capabilities,
version, offsets, checksums, termination, expiry), the limits, and the guarantees a
client relies on: a piece lands only at the committed offset, a wrong checksum stores
nothing, racing completions make one document, an upload complete before a stop is added
after it."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from httpx import Response

from askalong.config import Settings
from askalong.server.deps import current_access
from askalong.types import Access

TUS = {"Tus-Resumable": "1.0.0"}
PIECE = {**TUS, "Content-Type": "application/offset+octet-stream"}
TEXT = ("Resumable uploads arrive in pieces. " * 400).encode()  # ~14 KB of plain text


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def metadata(**values: str) -> str:
    return ",".join(f"{k} {base64.b64encode(v.encode()).decode()}" for k, v in values.items())


def create(client: TestClient, data: bytes = TEXT, name: str = "notes.txt", **extra: str) -> str:
    headers = {
        **TUS,
        "Upload-Length": str(len(data)),
        "Upload-Metadata": metadata(filename=name, **extra),
    }
    response = client.post("/api/uploads", headers=headers)
    assert response.status_code == 201, response.text
    location = response.headers["Location"]
    assert location.startswith("/api/uploads/")
    return location


def patch(client: TestClient, url: str, offset: int, data: bytes, **headers: str) -> Response:
    return client.patch(
        url, content=data, headers={**PIECE, "Upload-Offset": str(offset), **headers}
    )


def offset(client: TestClient, url: str) -> int:
    response = client.head(url, headers=TUS)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    return int(response.headers["Upload-Offset"])


def sha(algorithm: str, data: bytes) -> str:
    return f"{algorithm} {base64.b64encode(hashlib.new(algorithm, data).digest()).decode()}"


def test_options_tell_the_version_extensions_limit_and_checksums(client: TestClient) -> None:
    response = client.options("/api/uploads")
    assert response.status_code == 204
    assert response.headers["Tus-Version"] == "1.0.0"
    extensions = set(response.headers["Tus-Extension"].split(","))
    assert {"creation", "termination", "expiration", "checksum"} <= extensions
    assert int(response.headers["Tus-Max-Size"]) == 100 * 1024 * 1024
    assert "sha256" in response.headers["Tus-Checksum-Algorithm"].split(",")


def test_a_request_without_the_protocol_version_is_412(client: TestClient) -> None:
    response = client.post("/api/uploads", headers={"Upload-Length": "10"})
    assert response.status_code == 412
    assert response.headers["Tus-Version"] == "1.0.0"


def test_pieces_in_order_make_the_document(client: TestClient) -> None:
    url = create(client)
    assert offset(client, url) == 0
    for start in range(0, len(TEXT), 4096):
        response = patch(client, url, start, TEXT[start : start + 4096])
        assert response.status_code == 204, response.text
        assert int(response.headers["Upload-Offset"]) == min(start + 4096, len(TEXT))
    state = client.get(url).json()
    assert state["state"] == "added" and state["received"] == len(TEXT)
    listed = client.get("/api/documents").json()["documents"]
    assert [d["id"] for d in listed] == [state["document_id"]]
    assert listed[0]["title"]  # the display name or the text's own title


def test_a_piece_at_the_wrong_offset_is_409_and_changes_nothing(client: TestClient) -> None:
    url = create(client)
    assert patch(client, url, 0, TEXT[:1000]).status_code == 204
    assert patch(client, url, 2000, TEXT[2000:3000]).status_code == 409  # out of order
    assert patch(client, url, 0, TEXT[:1000]).status_code == 409  # the same piece again
    assert offset(client, url) == 1000
    assert patch(client, url, 1000, TEXT[1000:]).status_code == 204
    assert client.get(url).json()["state"] == "added"


def test_a_wrong_checksum_is_460_and_stores_nothing(client: TestClient) -> None:
    url = create(client)
    wrong = sha("sha256", b"other bytes")
    assert patch(client, url, 0, TEXT[:500], **{"Upload-Checksum": wrong}).status_code == 460
    assert offset(client, url) == 0
    right = sha("sha256", TEXT[:500])
    assert patch(client, url, 0, TEXT[:500], **{"Upload-Checksum": right}).status_code == 204
    assert offset(client, url) == 500
    sha1 = sha("sha1", TEXT[500:])
    assert patch(client, url, 500, TEXT[500:], **{"Upload-Checksum": sha1}).status_code == 204


def test_an_unknown_checksum_algorithm_is_400(client: TestClient) -> None:
    url = create(client)
    response = patch(client, url, 0, TEXT[:10], **{"Upload-Checksum": "crc32 AAAAAA=="})
    assert response.status_code == 400
    assert "crc32" in response.json()["error"]["message"]


def test_a_whole_file_digest_that_does_not_match_fails_the_upload(client: TestClient) -> None:
    url = create(client, sha256=hashlib.sha256(b"not this file").hexdigest())
    assert patch(client, url, 0, TEXT).status_code == 204
    state = client.get(url).json()
    assert state["state"] == "failed" and "sha256" in state["error"]
    assert client.get("/api/documents").json()["documents"] == []


def test_pieces_need_the_offset_media_type(client: TestClient) -> None:
    url = create(client)
    response = client.patch(url, content=TEXT[:10], headers={**TUS, "Upload-Offset": "0"})
    assert response.status_code == 415


def test_more_bytes_than_declared_are_refused(client: TestClient) -> None:
    url = create(client, TEXT[:100])
    assert patch(client, url, 0, TEXT[:101]).status_code == 413
    assert offset(client, url) == 0


def test_a_file_over_the_limit_is_refused_at_creation(settings: Settings) -> None:
    small = dataclasses.replace(settings, max_file_mb=0.001)
    with api_client(small) as client:
        headers = {**TUS, "Upload-Length": str(10_000)}
        response = client.post("/api/uploads", headers=headers)
    assert response.status_code == 413
    assert "limit" in response.json()["error"]["message"]


def test_a_piece_over_the_piece_limit_is_413(settings: Settings) -> None:
    limited = dataclasses.replace(settings, upload_piece_mb=0.001)  # 1,048 bytes
    with api_client(limited) as client:
        url = create(client)
        assert patch(client, url, 0, TEXT[:2000]).status_code == 413
        assert patch(client, url, 0, TEXT[:1000]).status_code == 204


def test_terminated_uploads_are_gone(client: TestClient) -> None:
    url = create(client)
    assert patch(client, url, 0, TEXT[:100]).status_code == 204
    assert client.delete(url, headers=TUS).status_code == 204
    assert client.head(url, headers=TUS).status_code == 404
    assert patch(client, url, 100, TEXT[100:200]).status_code == 404


def test_an_expired_upload_is_410_and_swept(client: TestClient, settings: Settings) -> None:
    url = create(client)
    uploads = client.app.state.askalong.uploads  # type: ignore[attr-defined]
    later = datetime.now(UTC) + timedelta(hours=25)
    uploads._clock = lambda: later
    assert client.head(url, headers=TUS).status_code == 410
    assert client.head(url, headers=TUS).status_code == 404
    assert not any((settings.home / "uploads").glob("[0-9a-f]*"))


def test_too_many_unfinished_uploads_is_429(settings: Settings) -> None:
    with api_client(dataclasses.replace(settings, upload_pending=2)) as client:
        create(client)
        create(client)
        headers = {**TUS, "Upload-Length": "10"}
        refused = client.post("/api/uploads", headers=headers)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"]


def test_another_users_upload_is_404(client: TestClient) -> None:
    url = create(client)
    client.app.dependency_overrides[current_access] = lambda: Access(user="mallory")  # type: ignore[attr-defined]
    assert client.head(url, headers=TUS).status_code == 404
    assert client.get(url).status_code == 404
    assert patch(client, url, 0, TEXT).status_code == 404
    assert client.delete(url, headers=TUS).status_code == 404
    client.app.dependency_overrides.clear()  # type: ignore[attr-defined]
    assert offset(client, url) == 0


def test_a_malformed_upload_id_is_400_not_a_path(client: TestClient) -> None:
    response = client.head("/api/uploads/..%2f..%2fetc", headers=TUS)
    assert response.status_code in (400, 404)
    assert client.get("/api/uploads/" + "z" * 32).status_code == 400


def test_racing_completions_make_exactly_one_document(client: TestClient) -> None:
    url = create(client)
    assert patch(client, url, 0, TEXT[:-100]).status_code == 204
    start = threading.Barrier(4)
    statuses: list[int] = []

    def complete() -> None:
        start.wait()
        statuses.append(patch(client, url, len(TEXT) - 100, TEXT[-100:]).status_code)

    racers = [threading.Thread(target=complete) for _ in range(4)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(statuses) == [204, 409, 409, 409]
    assert len(client.get("/api/documents").json()["documents"]) == 1


def test_bytes_a_crash_left_past_the_offset_are_cut_away(
    client: TestClient, settings: Settings
) -> None:
    url = create(client)
    assert patch(client, url, 0, TEXT[:1000]).status_code == 204
    stored = settings.home / "uploads" / url.rsplit("/", 1)[1]
    with stored.open("ab") as leftover:  # a crash after the append, before the commit
        leftover.write(b"GARBAGE" * 10)
    assert patch(client, url, 1000, TEXT[1000:]).status_code == 204
    document_id = client.get(url).json()["document_id"]
    original = client.get(f"/api/documents/{document_id}/original")
    assert original.content == TEXT


def test_an_upload_complete_before_a_stop_is_added_after_it(settings: Settings) -> None:
    with api_client(settings) as client:
        url = create(client)
        uploads = client.app.state.askalong.uploads  # type: ignore[attr-defined]
        upload_id = url.rsplit("/", 1)[1]
        stored = settings.home / "uploads" / upload_id
        stored.write_bytes(TEXT)  # every byte in and claimed; the server stops before adding
        assert uploads.store.advance_upload(upload_id, 0, len(TEXT))
        assert uploads.store.claim_upload(upload_id)
    with api_client(settings) as client:
        state = client.get(url).json()
        assert state["state"] == "added"
        assert len(client.get("/api/documents").json()["documents"]) == 1


def test_an_empty_upload_is_refused_and_takes_no_pending_slot(settings: Settings) -> None:
    with api_client(dataclasses.replace(settings, upload_pending=1)) as client:
        empty = client.post("/api/uploads", headers={**TUS, "Upload-Length": "0"})
        assert empty.status_code == 400, empty.text
        assert "empty (Upload-Length: 0)" in empty.json()["error"]["message"]
        assert empty.headers["Tus-Resumable"] == "1.0.0"
        create(client)  # the one slot is still free
