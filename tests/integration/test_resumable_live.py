"""Resumable uploads against a real server process, with the standard Python tus client
(tuspy): a real paper in pieces with checksums, a connection dropped mid-piece then
resumed, and an upload resumed after the server restarted."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from tusclient.client import TusClient
from tusclient.uploader import Uploader

from e2e.live import LiveServer, live_server

PAPER = "pdf/en_2col/2020.acl-main.207.pdf"
OTHER_PAPER = "pdf/en_2col/N18-3011.pdf"
PIECE = 256 * 1024
SMALL_PIECE = 64 * 1024  # the other paper is 171 KB
TUS = {"Tus-Resumable": "1.0.0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("tus") / "home") as server:
        yield server


def tus_client(server: LiveServer) -> TusClient:
    return TusClient(server.url + "/api/uploads", headers=server.headers)


def added_document(server: LiveServer, url: str, timeout: float = 120) -> str:
    """The upload's document id once the server has added it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = httpx.get(url, headers=server.headers, timeout=10).json()
        if state["state"] == "added":
            return str(state["document_id"])
        assert state["state"] in ("receiving", "complete"), state
        time.sleep(0.2)
    raise AssertionError(f"the upload was not added within {timeout} s")


def stored_offset(server: LiveServer, url: str) -> int:
    response = httpx.head(url, headers={**server.headers, **TUS}, timeout=10)
    assert response.status_code == 200
    return int(response.headers["Upload-Offset"])


def test_tuspy_uploads_a_paper_in_checksummed_pieces(server: LiveServer, evaldata: Path) -> None:
    paper = evaldata / PAPER
    uploader = tus_client(server).uploader(
        str(paper), chunk_size=PIECE, metadata={"filename": paper.name}, upload_checksum=True
    )
    uploader.upload()
    document_id = added_document(server, str(uploader.url))
    original = httpx.get(
        f"{server.url}/api/documents/{document_id}/original", headers=server.headers
    )
    assert original.content == paper.read_bytes()
    assert len(server.structure(document_id)["pages"]) > 3  # type: ignore[arg-type]


def test_a_piece_cut_off_mid_way_is_kept_and_the_upload_resumes(
    server: LiveServer, evaldata: Path
) -> None:
    paper = evaldata / OTHER_PAPER
    data = paper.read_bytes()
    uploader = tus_client(server).uploader(
        str(paper), chunk_size=SMALL_PIECE, metadata={"filename": paper.name}
    )
    uploader.upload_chunk()  # the first piece, whole
    url = str(uploader.url)
    sent = send_then_drop(server, url, SMALL_PIECE, data[SMALL_PIECE : 2 * SMALL_PIECE], 30_000)
    deadline = time.monotonic() + 30  # a loaded machine (load 15, 2 cores) writes late
    while stored_offset(server, url) == SMALL_PIECE and time.monotonic() < deadline:
        time.sleep(0.1)
    assert SMALL_PIECE < stored_offset(server, url) <= SMALL_PIECE + sent
    resumed = Uploader(str(paper), url=url, client=tus_client(server), chunk_size=SMALL_PIECE)
    resumed.upload()
    document_id = added_document(server, url)
    original = httpx.get(
        f"{server.url}/api/documents/{document_id}/original", headers=server.headers
    )
    assert original.content == data


def test_an_upload_resumes_after_the_server_restarts(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("An upload that outlives its server. " * 5_000)  # 180 KB
    home = tmp_path / "home"
    with live_server(home) as first:
        uploader = tus_client(first).uploader(
            str(notes), chunk_size=SMALL_PIECE, metadata={"filename": notes.name}
        )
        uploader.upload_chunk()
        uploader.upload_chunk()
        path = urlsplit(str(uploader.url)).path
    with live_server(home) as second:
        url = second.url + path
        assert stored_offset(second, url) == 2 * SMALL_PIECE
        resumed = Uploader(str(notes), url=url, client=tus_client(second), chunk_size=SMALL_PIECE)
        resumed.upload()
        document_id = added_document(second, url)
        original = httpx.get(
            f"{second.url}/api/documents/{document_id}/original", headers=second.headers
        )
        assert original.content == notes.read_bytes()


def send_then_drop(server: LiveServer, url: str, offset: int, piece: bytes, count: int) -> int:
    """A PATCH declaring the whole ``piece`` whose connection closes after ``count`` bytes."""
    parts = urlsplit(url)
    head = (
        f"PATCH {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Authorization: {server.headers['Authorization']}\r\nTus-Resumable: 1.0.0\r\n"
        "Content-Type: application/offset+octet-stream\r\n"
        f"Upload-Offset: {offset}\r\nContent-Length: {len(piece)}\r\n\r\n"
    ).encode()
    with socket.create_connection((parts.hostname, parts.port)) as conn:
        conn.sendall(head + piece[:count])
        time.sleep(0.5)  # let the server read what was sent before the connection goes
    return count
