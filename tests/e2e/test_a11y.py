"""Accessibility checks (axe-core, whole page) on every view a person meets: the library,
the reader on a PDF and on an HTML document, the ask box open, a panel with an answer and
the shortcut sheet. Any serious or critical violation fails the test, with its list."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.a11y import blocking
from e2e.conftest import Library
from e2e.reader import drag_select, open_reader, pick_block, sentence_in, wait_for_answer


def _open_ask_box(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["paper"])
    open_reader(page, library.server.url, library.ids["paper"])
    drag_select(page, sentence_in(pick_block(structure, page=1, lines=2, min_chars=60)))
    page.locator(".fab-ask").click()
    expect(page.locator(".askbox")).to_be_visible()


def test_the_library_page_has_no_serious_violations(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/")
    expect(page.locator(".doc-card")).to_have_count(len(library.ids))
    assert blocking(page) == []


def test_the_reader_on_a_pdf_has_no_serious_violations(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    expect(page.locator('.page[data-page="1"]')).to_have_class("page loaded")
    assert blocking(page) == []


def test_the_reader_on_html_has_no_serious_violations(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["manual"])
    assert blocking(page) == []


def test_the_open_ask_box_has_no_serious_violations(page: Page, library: Library) -> None:
    _open_ask_box(page, library)
    assert blocking(page) == []


def test_a_panel_with_an_answer_has_no_serious_violations(page: Page, library: Library) -> None:
    _open_ask_box(page, library)
    page.locator(".askbox .chip", has_text="Explain").click()
    wait_for_answer(page)
    expect(page.locator(".turn .quote-card").first).to_be_visible()
    assert blocking(page) == []


def test_the_shortcut_sheet_has_no_serious_violations(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    assert blocking(page) == []
