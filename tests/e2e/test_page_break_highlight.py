"""A quote across a page break: the paragraph "…is passed as an" | "array to …" is one
block with lines on two pages, and the reader highlights the quote on both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from samples import PAGE_BREAK_LINES, page_break_pdf

from e2e.conftest import entered_page
from e2e.live import LiveServer
from e2e.reader import open_reader

QUOTE = "field is passed as an array to the function"
MARKED_PAGES = (
    "() => [...document.querySelectorAll('.hl')].map((m) => m.closest('.page').dataset.page)"
)


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, reading_room: LiveServer
) -> tuple[LiveServer, str]:
    pdf = tmp_path_factory.mktemp("page-break") / "manual.pdf"
    pdf.write_bytes(page_break_pdf())
    return reading_room, reading_room.upload(pdf)


@pytest.fixture
def page(browser: Browser, server: tuple[LiveServer, str]) -> Iterator[Page]:
    with entered_page(browser, server[0], landing=None) as page:
        yield page


def test_a_quote_across_a_page_break_is_highlighted_on_both_pages(
    page: Page, server: tuple[LiveServer, str]
) -> None:
    live, document_id = server
    blocks = live.structure(document_id)["blocks"]
    assert isinstance(blocks, list)
    [block] = [b for b in blocks if b["text"] == " ".join(PAGE_BREAK_LINES)]
    start = block["text"].index(QUOTE)
    open_reader(page, live.url, document_id)
    text = page.evaluate(
        "([b, s, e]) => window.askalong.highlight(b, s, e)",
        [block["id"], start, start + len(QUOTE)],
    )
    assert text == QUOTE
    assert sorted(set(page.evaluate(MARKED_PAGES))) == ["1", "2"]
    layer_two = page.locator('.page[data-page="2"] .seg', has_text="array to the function")
    assert layer_two.count() == 1  # the line selectable where it is printed
