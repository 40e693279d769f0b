"""The library's uploads as a queue, in real Chromium against a real server: every chosen
file has its row at once with its size, two are sent at a time, each document is in the
library as soon as it is read (not when the last ends), an empty file fails at once with
its reason and no full bar while the others go on, a file the server refuses says what
would help and offers no Retry, a busy server's refusal offers a Retry that sends it, rows
can be dismissed, and leaving with files unsent asks first. The chooser offers source code
and archives. English and Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from e2e.conftest import entered_page
from e2e.live import LiveServer, live_server

NOTE = "# {title}\n\nThe {title} note says the tide turns twice a day near the harbour.\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("e2e-queue") / "home") as running:
        yield running


def notes(folder: Path, numbers: range) -> list[Path]:
    paths = []
    for number in numbers:
        path = folder / f"note-{number}.md"
        path.write_text(NOTE.format(title=f"Harbour {number}"), encoding="utf-8")
        paths.append(path)
    return paths


def titles(server: LiveServer) -> list[str]:
    listed = httpx.get(server.url + "/api/documents", headers=server.headers).json()
    return [d["title"] for d in listed["documents"]]


def asks_before_leaving(page: Page) -> bool:
    return bool(
        page.evaluate(
            """() => {
              const event = new Event("beforeunload", { cancelable: true });
              window.dispatchEvent(event);
              return event.defaultPrevented;
            }"""
        )
    )


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    with entered_page(browser, server) as page:
        page.wait_for_selector("body.ready")
        yield page


def test_the_queue_shows_every_file_sends_two_at_a_time_and_adds_each_when_read(
    page: Page, server: LiveServer, tmp_path: Path
) -> None:
    held: list[Route] = []
    created: list[str] = []
    holding = [True]

    def hold_pieces(route: Route) -> None:
        if route.request.method == "PATCH" and holding[0]:
            held.append(route)  # answered later, one file at a time
        else:
            if route.request.method == "POST":
                created.append(route.request.url)
            route.continue_()

    page.route("**/api/uploads**", hold_pieces)
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    files = [*notes(tmp_path, range(2)), empty, *notes(tmp_path, range(2, 4))]
    page.locator("#file").set_input_files([str(p) for p in files])

    rows = page.locator(".upload-row")
    expect(rows).to_have_count(5)  # all at once, in the order chosen
    expect(rows.nth(0).locator(".upload-size")).to_have_text(f"{files[0].stat().st_size} B")
    failed = rows.nth(2)
    expect(failed).to_have_attribute("data-state", "failed")
    expect(failed.locator(".upload-status")).to_have_text("Empty file (0 bytes)")
    expect(failed.locator(".upload-help")).to_contain_text("once it has content")
    expect(failed.locator(".upload-retry")).to_have_count(0)
    assert failed.locator(".progress-bar").evaluate("b => b.getBoundingClientRect().width") == 0

    page.wait_for_function("() => document.querySelectorAll('[data-state=sending]').length == 2")
    page.wait_for_timeout(300)
    assert len(held) == 2 and len(created) == 2  # the other two wait their turn
    expect(page.locator(".upload-row[data-state=waiting]")).to_have_count(2)
    assert asks_before_leaving(page)

    held.pop(0).continue_()  # the first file ends: its document is in the library now
    expect(page.locator(".doc-card")).to_have_count(1, timeout=30_000)
    expect(page.locator(".upload-row[data-state=done]")).to_have_count(1)
    assert len(titles(server)) == 1

    holding[0] = False
    for route in held:
        route.continue_()
    expect(page.locator(".upload-row[data-state=done]")).to_have_count(4, timeout=60_000)
    expect(page.locator(".doc-card")).to_have_count(4)
    assert not asks_before_leaving(page)

    failed.locator(".upload-dismiss").click()
    expect(rows).to_have_count(4)


def test_a_refused_file_says_what_would_help_without_a_retry(page: Page, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not a PDF at all")
    page.locator("#file").set_input_files(str(broken))
    row = page.locator(".upload-row")
    expect(row).to_have_attribute("data-state", "failed", timeout=60_000)
    expect(row.locator(".upload-help")).to_contain_text("Sending it again will not help")
    expect(row.locator(".upload-retry")).to_have_count(0)


def test_the_chooser_offers_code_and_archives(page: Page) -> None:
    accepted = page.locator("#file").get_attribute("accept") or ""
    for suffix in (".pdf", ".md", ".py", ".rs", ".zip", ".tar.gz"):
        assert suffix in accepted.split(","), suffix


def test_the_queue_speaks_chinese(browser: Browser, server: LiveServer, tmp_path: Path) -> None:
    with entered_page(browser, server, locale="zh-CN") as page:
        page.wait_for_selector("body.ready")
        empty = tmp_path / "empty.txt"
        empty.write_bytes(b"")
        page.locator("#file").set_input_files(str(empty))
        row = page.locator(".upload-row")
        expect(row.locator(".upload-status")).to_have_text("空文件（0 字节）")
        expect(row.locator(".upload-dismiss")).to_have_attribute("aria-label", "移除 empty.txt")


def test_a_busy_server_offers_retry_which_sends_the_file(
    page: Page, server: LiveServer, tmp_path: Path
) -> None:
    def busy(route: Route) -> None:
        if route.request.method == "POST":
            body = '{"error": {"type": "TooMany", "message": "too many uploads at once"}}'
            route.fulfill(status=429, headers={"Retry-After": "1"}, body=body)
        else:
            route.continue_()

    page.route("**/api/uploads", busy)
    (path,) = notes(tmp_path, range(7, 8))
    page.locator("#file").set_input_files(str(path))
    row = page.locator(".upload-row")
    expect(row).to_have_attribute("data-state", "failed", timeout=30_000)
    expect(row.locator(".upload-help")).to_contain_text("Retry sends the rest")
    page.unroute("**/api/uploads")
    row.locator(".upload-retry").click()
    expect(row).to_have_attribute("data-state", "done", timeout=60_000)
    expect(page.locator(".doc-card", has_text="Harbour 7")).to_be_visible()
