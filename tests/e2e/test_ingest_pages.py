"""Ingestion in Chromium, on a server of its own (so the shared library stays as it is),
whose OCR budget is nothing: a long upload shows its real progress in the library page
(pages parsed n/N), and a scanned page the OCR left unread says so, "Read it now" reads it
and its text layer appears in place (no reload)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from samples import scanned_tops

from e2e.conftest import entered_page
from e2e.live import LiveServer, live_server
from e2e.reader import open_reader

# 128 pages: its parse outlasts several progress intervals even on a quiet machine (a
# 46-page paper parsed between two reports once, leaving the bar at 0 then 100).
LONG = "pdf/zh_long/lshort-zh-cn.pdf"
LONG_PAGES = 128
# Every text the upload row's status shows, and the bar's values, as they change.
WATCH_UPLOADS = """() => {
  window.seen = {status: [], values: []};
  new MutationObserver(() => {
    const status = document.querySelector(".upload-status")?.textContent;
    const bar = document.querySelector(".upload-row [role=progressbar]");
    if (status && status !== window.seen.status.at(-1)) window.seen.status.push(status);
    if (bar) window.seen.values.push(Number(bar.getAttribute("aria-valuenow")));
  }).observe(document.body, {subtree: true, childList: true, characterData: true,
                             attributes: true});
}"""
NOTICE = "This page was not read: the text recognition ran out of time."


@pytest.fixture(scope="module")
def unread_server(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose OCR budget is nothing: every scanned page is added unread."""
    home = tmp_path_factory.mktemp("e2e-unread") / "home"
    # OCR of one page takes seconds, minutes on a machine loaded many times over.
    settings = {"ASKALONG_OCR_BUDGET": "0", "ASKALONG_PARSE_TIMEOUT": "900"}
    with live_server(home, settings) as server:
        yield server


@pytest.fixture
def scan_page(browser: Browser, unread_server: LiveServer) -> Iterator[Page]:
    with entered_page(browser, unread_server) as page:
        yield page


@pytest.mark.slow  # OCR of a page in the server: seconds, more on a loaded machine
def test_an_unread_page_says_so_and_is_read_in_place(
    scan_page: Page, unread_server: LiveServer, evaldata: Path, artifacts: Path, tmp_path: Path
) -> None:
    page = scan_page
    scan = tmp_path / "scan.pdf"  # the top half of a scanned page: OCR in half the time
    scan.write_bytes(scanned_tops(evaldata, 1, share=0.5))
    doc_id = unread_server.upload(scan)
    open_reader(page, unread_server.url, doc_id)
    first = page.locator('.page[data-page="1"]')
    notice = first.locator(".unread-page")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(NOTICE)
    expect(first.locator(".text-layer .seg")).to_have_count(0)
    page.screenshot(path=str(artifacts / "unread-page.png"))

    notice.get_by_role("button", name="Read it now").click()
    expect(notice.locator(".unread-status")).to_contain_text("Reading the page")
    expect(notice).to_have_count(0, timeout=900_000)
    segments = first.locator(".text-layer .seg")
    expect(segments.first).to_be_attached()
    assert segments.count() >= 20
    assert page.evaluate("location.pathname + location.search").endswith(f"doc={doc_id}")
    # the new blocks are the reader's own: their text is known to selections and quotes
    seg = segments.nth(5)
    block_id, start, end = (seg.get_attribute(k) for k in ("data-block", "data-start", "data-end"))
    sliced = page.evaluate(f"window.askalong.blockSlice('{block_id}', {start}, {end})")
    assert sliced == seg.text_content()
    page.screenshot(path=str(artifacts / "unread-page-read.png"))

    page.reload()  # stored: the page opens read, with no notice
    page.wait_for_selector("body.ready")
    expect(first.locator(".text-layer .seg").first).to_be_attached()
    expect(first.locator(".unread-page")).to_have_count(0)


def test_a_long_upload_shows_the_pages_read_as_they_are_read(
    scan_page: Page, unread_server: LiveServer, evaldata: Path, artifacts: Path
) -> None:
    page = scan_page
    page.goto(unread_server.url + "/")
    page.wait_for_selector("body.ready")
    page.evaluate(WATCH_UPLOADS)
    page.locator("#file").set_input_files(str(evaldata / LONG))
    expect(page.locator(".upload-status")).to_contain_text("Reading pages", timeout=60_000)
    page.screenshot(path=str(artifacts / "upload-progress.png"))
    expect(page.locator(".upload-row.done .upload-status")).to_contain_text(
        "Added", timeout=180_000
    )
    seen = page.evaluate("window.seen")
    pages = [
        int(m[1])
        for s in seen["status"]
        if (m := re.fullmatch(rf"Reading pages: (\d+) of {LONG_PAGES}", s))
    ]
    # The page polls: it may move on before it sees the last count, never backwards.
    assert pages and pages == sorted(pages) and pages[-1] <= LONG_PAGES, seen["status"]
    assert any(0 < n < LONG_PAGES for n in pages)  # it moved, not first and last alone
    assert any(0 < value < 100 for value in seen["values"]), seen["values"]
