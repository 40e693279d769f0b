"""Finding a document in the library, in real Chromium on the shared library (a paper, a
manual page, a Chinese paper): words of a title narrow the list, documents or source code
only, newest first or by title; each card names its language in the reader's words
("English", not "en"), in English and in Chinese."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from e2e.conftest import Library, entered_page


def titles(page: Page) -> list[str]:
    return page.locator(".doc-card .doc-card-title").all_inner_texts()


def test_the_library_is_searched_filtered_and_sorted(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/")
    cards = page.locator(".doc-card")
    expect(cards).to_have_count(len(library.ids))
    page.get_by_label("Find by title").fill("select")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("SELECT")
    page.get_by_label("Find by title").fill("")
    page.get_by_label("Order").select_option("title")
    expect(cards).to_have_count(len(library.ids))
    shown = titles(page)
    assert shown == sorted(shown, key=str.casefold) or shown == sorted(shown), shown
    page.get_by_label("Show").select_option("code")
    expect(cards).to_have_count(0)
    expect(page.locator("#documents")).to_have_text("No document matches.")
    page.get_by_label("Show").select_option("documents")
    expect(cards).to_have_count(len(library.ids))


def test_cards_name_the_language_in_words(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/")
    manual = page.locator(".doc-card", has_text="SELECT")
    expect(manual.locator(".doc-card-meta")).to_contain_text("· English ·")


def test_the_library_view_speaks_chinese(browser: Browser, library: Library) -> None:
    with entered_page(browser, library.server, locale="zh-CN") as page:
        page.wait_for_selector("body.ready")
        manual = page.locator(".doc-card", has_text="SELECT")
        expect(manual.locator(".doc-card-meta")).to_contain_text("· 英语 ·")
        expect(page.get_by_label("按标题查找")).to_be_visible()
        page.get_by_label("显示").select_option("code")
        expect(page.locator("#documents")).to_have_text("没有匹配的文档。")
