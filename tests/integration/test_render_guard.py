"""Page images are drawn in a guarded child: a page that takes too long or needs too much
memory to draw is refused with a JSON 413 naming the page and the limit, within a bounded
time, while other requests are answered; a killed render child gives a 503 and the next
image renders."""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from samples import sized_pdf, slow_page_pdf

from askalong.config import Settings
from askalong.parse.pdf.render import PageRenderer

TIME_LIMIT = 2.0  # seconds per image in these tests (the default is 15)
FILLS = 100_000  # ~20 s of drawing page 2 at 240 px, from a 5 KB file


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    limited = dataclasses.replace(settings, render_timeout=TIME_LIMIT)
    with api_client(limited) as client:
        yield client


def upload(client: TestClient, name: str, pdf: bytes) -> str:
    response = client.post("/api/documents", files={"file": (name, pdf)})
    assert response.status_code == 201, response.text
    return str(response.json()["document"]["id"])


def renderer(client: TestClient) -> PageRenderer:
    pages: PageRenderer = client.app.state.askalong.pages  # type: ignore[attr-defined]
    return pages


@contextmanager
def requested(client: TestClient, url: str) -> Iterator[Future[httpx.Response]]:
    """``url`` requested from another thread (the test's own requests go on meanwhile)."""
    with ThreadPoolExecutor(1) as pool:
        yield pool.submit(client.get, url)


def wait_until_drawing(client: TestClient, seconds: float = 30) -> None:
    """Until the background request holds the renderer (its one-page-at-a-time lock: it is
    then drawing, for ~20 s). A fixed sleep here could end, on a loaded machine, before the
    request got there: the child then killed while idle, or the limit timed from too early."""
    deadline = time.monotonic() + seconds
    while not renderer(client)._lock.locked():
        assert time.monotonic() < deadline, "the page request never reached the renderer"
        time.sleep(0.01)
    assert renderer(client).child_pid is not None


def test_a_page_slow_to_draw_is_refused_in_bounded_time_while_others_are_served(
    client: TestClient,
) -> None:
    pdf = slow_page_pdf(FILLS)
    assert len(pdf) < 6000
    doc = upload(client, "slow.pdf", pdf)
    with requested(client, f"/api/documents/{doc}/pages/2.png?width=240") as slow:
        wait_until_drawing(client)
        listed = client.get("/api/documents")  # another route, answered meanwhile
        assert listed.status_code == 200 and not slow.done()
        response = slow.result(timeout=30)
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert error["type"] == "TooLarge" and error["source"] == doc
    assert "page 2" in error["message"] and "ASKALONG_RENDER_TIMEOUT" in error["message"]
    assert client.get(f"/api/documents/{doc}/pages/1.png?width=240").status_code == 200


def test_a_killed_render_child_gives_503_and_the_next_image_renders(client: TestClient) -> None:
    doc = upload(client, "slow.pdf", slow_page_pdf(FILLS))
    with requested(client, f"/api/documents/{doc}/pages/2.png?width=240") as slow:
        wait_until_drawing(client)
        pid = renderer(client).child_pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        response = slow.result(timeout=30)
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "1"
    error = response.json()["error"]
    assert error["type"] == "Unavailable" and "page 2" in error["message"]
    assert client.get(f"/api/documents/{doc}/pages/1.png?width=240").status_code == 200
    assert renderer(client).child_pid not in (None, pid)


def test_a_page_over_the_memory_limit_is_refused_and_small_pages_still_render(
    settings: Settings,
) -> None:
    # 100 x 1000 pt at 1800 px is 32 MP: within the pixel budget, ~270 MB to draw.
    limited = dataclasses.replace(settings, render_memory_mb=200)
    with api_client(limited) as client:
        doc = upload(client, "tall.pdf", sized_pdf((612.0, 792.0), (100.0, 1000.0)))
        response = client.get(f"/api/documents/{doc}/pages/2.png?width=1800")
        assert response.status_code == 413, response.text
        message = response.json()["error"]["message"]
        assert "page 2" in message and "200 MB (ASKALONG_RENDER_MEMORY_MB)" in message
        assert client.get(f"/api/documents/{doc}/pages/1.png?width=240").status_code == 200
        assert client.get(f"/api/documents/{doc}/pages/2.png?width=240").status_code == 200


def test_a_render_child_killed_while_idle_is_replaced_at_the_next_image(
    client: TestClient,
) -> None:
    doc = upload(client, "plain.pdf", sized_pdf((612.0, 792.0)))
    assert client.get(f"/api/documents/{doc}/pages/1.png?width=240").status_code == 200
    pid = renderer(client).child_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    response = client.get(f"/api/documents/{doc}/pages/1.png?width=320")
    assert response.status_code in (200, 503), response.text  # never a 500
    assert client.get(f"/api/documents/{doc}/pages/1.png?width=480").status_code == 200
