"""A thread opened by a quick intent is titled by what it was asked of, in real Chromium on
the shared library: *Explain* on a selection of the paper lists its thread as
"Explain: “<the selection>”", not the canned "Explain this." every such thread shared; in
the Chinese reader "解释：“<the selection>”" (the interface's language, not the selection's)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from e2e.asking import select_text
from e2e.conftest import Library, entered_page
from e2e.reader import open_reader, wait_for_answer


def first_paragraph_words(structure: dict[str, Any], words: int = 6) -> str:
    block = next(b for b in structure["blocks"] if b["kind"] == "paragraph" and b["page"] == 1)
    return " ".join(block["text"].split()[:words])


def explained(page: Page, library: Library) -> str:
    """The paper open, its first paragraph's first words explained; those words."""
    server, doc_id = library.server, library.ids["paper"]
    structure: dict[str, Any] = server.structure(doc_id)  # type: ignore[assignment]
    selection = first_paragraph_words(structure)
    open_reader(page, server.url, doc_id)
    page.wait_for_selector('.page[data-page="1"].loaded')
    select_text(page, structure, selection)
    page.locator(".fab-ask").click()
    page.locator('.askbox .chip[data-intent="explain"]').click()
    wait_for_answer(page)
    return selection


def test_an_explain_thread_is_titled_by_its_selection(page: Page, library: Library) -> None:
    selection = explained(page, library)
    page.locator(".tab", has_text="Threads").click()
    expect(page.locator(".thread-item").first).to_contain_text(f"Explain: “{selection}”")
    expect(page.locator(".thread-item", has_text="Explain this.")).to_have_count(0)


def test_in_the_chinese_reader_an_english_selection_s_thread_is_titled_in_chinese(
    browser: Browser, library: Library
) -> None:
    with entered_page(browser, library.server, locale="zh-CN", landing=None) as page:
        selection = explained(page, library)
        expect(page.locator(".thread-name")).to_have_text(f"解释：“{selection}”")
        page.locator(".tab", has_text="对话").click()
        expect(page.locator(".thread-item").first).to_contain_text(f"解释：“{selection}”")
