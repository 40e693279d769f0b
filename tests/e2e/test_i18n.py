"""The UI's language (lib/i18n.js): a browser whose language is Chinese gets the reader in
Chinese (labels, the ask box, the shortcut sheet, `<html lang>`); the switch in the top bar
turns it to English, which a reload keeps (localStorage), and the library follows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import Library, entered_page
from e2e.reader import drag_select, open_reader, pick_block, sentence_in


@pytest.fixture
def chinese_page(browser: Browser, library: Library) -> Iterator[Page]:
    with entered_page(browser, library.server, locale="zh-CN") as page:
        yield page


def _open_ask_box(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["paper"])
    drag_select(page, sentence_in(pick_block(structure, page=1, lines=2, min_chars=60)))
    page.locator(".fab-ask").click()
    expect(page.locator(".askbox")).to_be_visible()


def test_a_chinese_browser_gets_the_reader_in_chinese(chinese_page: Page, library: Library) -> None:
    page = chinese_page
    open_reader(page, library.server.url, library.ids["paper"])
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("#toggle-outline")).to_have_text("目录")
    expect(page.locator("#zoom-fit-width")).to_have_text("适合宽度")
    expect(page.locator("#find")).to_have_attribute("placeholder", "查找原文词句")
    expect(page.locator("#zoom-in")).to_have_attribute("aria-label", "放大")
    expect(page.locator("#doc-meta")).to_contain_text("页")
    expect(page.locator(".panel .tab").first).to_have_text("回答")
    expect(page.locator(".composer-input")).to_have_attribute("placeholder", "就整篇文档提问…")
    expect(page.locator("#language")).to_have_value("zh-Hans")
    _open_ask_box(page, library)
    expect(page.locator(".askbox .chip")).to_have_text(["解释", "举例", "与…比较"])
    page.keyboard.press("Escape")
    page.locator("#toggle-panel").focus()
    page.keyboard.press("?")
    sheet = page.get_by_role("dialog", name="键盘快捷键")
    expect(sheet).to_be_visible()
    expect(sheet.locator("td").first).to_have_text("显示这些快捷键")


def test_switching_to_english_works_and_survives_a_reload(
    chinese_page: Page, library: Library
) -> None:
    page = chinese_page
    open_reader(page, library.server.url, library.ids["paper"])
    expect(page.locator("#toggle-outline")).to_have_text("目录")
    with page.expect_navigation():
        page.select_option("#language", "en")
    page.wait_for_selector("body.ready")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#toggle-outline")).to_have_text("Contents")
    expect(page.locator(".panel .tab").first).to_have_text("Answer")
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("#toggle-outline")).to_have_text("Contents")
    expect(page.locator("#language")).to_have_value("en")
    page.goto(library.server.url + "/")
    expect(page.locator("h1")).to_have_text("Library")
    with page.expect_navigation():
        page.select_option("#language", "zh-Hans")
    expect(page.locator("h1")).to_have_text("文库")
    expect(page.locator(".upload-button span")).to_have_text("上传")


def test_the_library_follows_the_browser_language(chinese_page: Page, library: Library) -> None:
    page = chinese_page
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("h1")).to_have_text("文库")
    expect(page).to_have_title("AskAlong — 文库")
    expect(page.locator("#ask-picked button").last).to_have_text("向全部文档提问")
