"""The library's upload is the tus protocol through the vendored tus-js-client, in real
Chromium against a real server: a paper goes up in pieces to ``/api/uploads``, a piece
whose connection drops is retried from the stored offset, and an upload interrupted by a
reload resumes where it stopped when the same file is chosen again."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from e2e.conftest import entered_page
from e2e.live import LiveServer, live_server

PAPER = "pdf/en_2col/N18-3011.pdf"  # 171 KB
PIECE = 48 * 1024  # four pieces of the paper


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of its own: these tests add documents the shared library's tests count."""
    with live_server(tmp_path_factory.mktemp("e2e-tus") / "home") as running:
        yield running


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    with entered_page(browser, server) as page:
        page.wait_for_selector("body.ready")
        yield page


def documents(server: LiveServer) -> list[dict[str, str]]:
    listed = httpx.get(server.url + "/api/documents", headers=server.headers).json()
    return list(listed["documents"])


def remove_all(server: LiveServer) -> None:
    for document in documents(server):
        httpx.delete(f"{server.url}/api/documents/{document['id']}", headers=server.headers)


def test_the_library_uploads_through_tus(page: Page, server: LiveServer, evaldata: Path) -> None:
    remove_all(server)
    methods: list[str] = []
    page.on(
        "request",
        lambda r: "/api/uploads" in r.url and methods.append(r.method),
    )
    page.locator("#file").set_input_files(str(evaldata / PAPER))
    expect(page.locator(".upload-row.done")).to_be_visible(timeout=60_000)
    expect(page.locator(".doc-card")).to_have_count(1)
    assert methods[0] == "POST" and "PATCH" in methods
    assert not any(m == "/api/documents" for m in methods)


def test_a_dropped_piece_is_sent_again_from_the_stored_offset(
    page: Page, server: LiveServer, evaldata: Path
) -> None:
    remove_all(server)
    dropped: list[str] = []

    def drop_the_second_piece(route: Route) -> None:
        request = route.request
        if (
            request.method == "PATCH"
            and request.headers.get("upload-offset") != "0"
            and not dropped
        ):
            dropped.append(request.headers["upload-offset"])
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/uploads/*", drop_the_second_piece)
    finished = start_in_page(page, evaldata / PAPER, PIECE)
    assert finished == "added"
    assert dropped == [str(PIECE)]
    assert [d["title"] for d in documents(server)]


def test_an_upload_cut_by_a_reload_resumes_where_it_stopped(
    page: Page, server: LiveServer, evaldata: Path
) -> None:
    remove_all(server)
    offsets: list[str] = []
    page.on(
        "request",
        lambda r: r.method == "PATCH" and offsets.append(r.headers.get("upload-offset", "")),
    )
    # Stall the third piece, then reload: two pieces are stored.
    page.route(
        "**/api/uploads/*",
        lambda route: (
            route.abort("timedout")
            if route.request.method == "PATCH"
            and route.request.headers.get("upload-offset") == str(2 * PIECE)
            else route.continue_()
        ),
    )
    # The third piece asked for: the server has stored two (progress counts bytes sent, not
    # stored, so reloading on it could beat the second piece's write).
    third = str(2 * PIECE)
    with page.expect_request(
        lambda r: r.method == "PATCH" and r.headers.get("upload-offset") == third
    ):
        start_in_page(page, evaldata / PAPER, PIECE, wait=False)
    page.reload()  # with the third piece still stalled: no retry can finish the upload first
    page.wait_for_selector("body.ready")
    page.unroute("**/api/uploads/*")
    offsets.clear()
    assert start_in_page(page, evaldata / PAPER, PIECE) == "added"
    assert offsets[0] == str(2 * PIECE)  # resumed from what was stored, not from 0


def start_in_page(page: Page, path: Path, piece: int, *, wait: bool = True) -> str | None:
    """Upload ``path`` with the reader's module, as a File with a fixed modification time
    (its fingerprint survives a reload, as a file picked again does)."""
    script = """async ([data, name, piece, wait]) => {
        const m = await import("/lib/resumable.js");
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const file = new File([bytes], name, { type: "application/pdf", lastModified: 1 });
        const done = m.uploadResumable(file, () => {}, () => {}, piece);
        if (!wait) { done.catch(() => {}); return null; }
        return (await done).status;
    }"""
    data = base64.b64encode(path.read_bytes()).decode()
    result: str | None = page.evaluate(script, [data, path.name, piece, wait])
    return result
