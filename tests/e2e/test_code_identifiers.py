"""Clickable identifiers in the code view (issue 27): in a repository of the standard
library's ``asyncio/locks.py`` and ``mixins.py`` uploaded as one archive, a click on a
name opens its card; the definition of a method called on ``self`` is in the other file
and opens it at its ``def`` line; a field's references are counted per file (the counts
the file's own lines give) and each goes to its exact characters; a method's calls and
callers open from the card."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.a11y import blocking
from e2e.conftest import entered_page
from e2e.live import LiveServer, live_server
from e2e.test_code_reader import LOCKS, MIXINS, assert_opened_at, uploaded_repository

# The box of the first occurrence of a word on a code line, as the reader lays it out.
WORD_BOX = """([line, word]) => {
  const row = document.querySelector(`.code-line[data-line="${line}"] .lc`);
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.search(new RegExp(`(?<![\\\\w$])${word}(?![\\\\w$])`));
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    return range.getBoundingClientRect().toJSON();
  }
  return null;
}"""


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, dict]]:
    with live_server(tmp_path_factory.mktemp("identifiers") / "home") as server:
        yield server, uploaded_repository(server)


@pytest.fixture
def code_page(browser: Browser, repository: tuple[LiveServer, dict]) -> Iterator[Page]:
    with entered_page(browser, repository[0], landing=None) as page:
        yield page


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def click_word(page: Page, line: int, word: str) -> None:
    page.locator(f'.code-line[data-line="{line}"]').scroll_into_view_if_needed()
    box = page.evaluate(WORD_BOX, [line, word])
    assert box is not None, (line, word)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def clicked_card(page: Page, repository: tuple[LiveServer, dict], text: str, word: str) -> Locator:
    """The card of ``word`` clicked on the line ``text`` of ``locks.py``."""
    server, ids = repository
    page.goto(f"{server.url}/reader.html?doc={ids['locks.py']}")
    page.wait_for_selector("body.ready")
    click_word(page, line_of(LOCKS, text), word)
    return page.locator(".identifier-card")


def naming_lines(path: Path, name: str) -> int:
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    rows = path.read_text(encoding="utf-8").splitlines()
    return sum(1 for r in rows if word.search(r) and not r.lstrip().startswith("#"))


def test_a_clicked_name_goes_to_its_definition_in_another_file(
    code_page: Page, repository: tuple[LiveServer, dict], artifacts: Path
) -> None:
    line = "        fut = self._get_loop().create_future()"
    card = clicked_card(code_page, repository, line, "_get_loop")
    expect(card.locator(".identifier-head")).to_have_text("_get_loop")
    definition = card.locator(".identifier-definition .identifier-link")
    expect(definition).to_have_count(1)
    expect(definition).to_contain_text("_LoopBoundMixin._get_loop")
    expect(definition.locator(".muted")).to_have_text(
        f"mixins.py:{line_of(MIXINS, '    def _get_loop(self):')}"
    )
    counts = card.locator(".identifier-file summary .count")
    expect(counts).to_have_count(2)  # locks.py and mixins.py
    code_page.screenshot(path=str(artifacts / "code-identifier-card.png"))
    assert blocking(code_page) == []
    definition.click()
    mixins = repository[1]["mixins.py"]
    assert_opened_at(code_page, mixins, MIXINS, "    def _get_loop(self):")


def test_a_fields_references_are_counted_and_each_goes_to_its_characters(
    code_page: Page, repository: tuple[LiveServer, dict]
) -> None:
    line = "            self._waiters = collections.deque()"
    card = clicked_card(code_page, repository, line, "_waiters")
    expected = naming_lines(LOCKS, "_waiters")
    expect(card.locator(".identifier-references")).to_have_text(f"{expected} references")
    file = card.locator(".identifier-file", has_text="locks.py")
    expect(file.locator(".count")).to_have_text(str(expected))
    expect(file.locator(".identifier-link")).to_have_count(expected)
    expect(card.locator(".identifier-definition").first).to_contain_text("field")
    file.locator(".identifier-link").nth(3).click()
    assert code_page.evaluate("window.askalong.highlightedText()") == "_waiters"


def test_a_methods_calls_and_callers_open_from_its_card(
    code_page: Page, repository: tuple[LiveServer, dict]
) -> None:
    line = "                self._wake_up_first()"
    card = clicked_card(code_page, repository, line, "_wake_up_first")
    card.locator(".identifier-definition .symbol-more").click()
    callers = card.locator(".symbol-links .symbol-link")
    expect(callers.filter(has_text="Lock.acquire")).to_have_count(1)
    expect(callers.filter(has_text="Lock.release")).to_have_count(1)
    code_page.keyboard.press("Escape")
    expect(card).to_have_count(0)


# A collapsed caret inside the first occurrence of a word on a code line, with focus on
# the listing: where caret browsing (F7) leaves the keyboard's caret.
CARET_IN_WORD = """([line, word]) => {
  const row = document.querySelector(`.code-line[data-line="${line}"] .lc`);
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.search(new RegExp(`(?<![\\\\w$])${word}(?![\\\\w$])`));
    if (at < 0) continue;
    document.querySelector(".code-listing").focus();
    window.getSelection().collapse(node, at + 2);
    return true;
  }
  return false;
}"""


def caret_in_get_loop(page: Page, repository: tuple[LiveServer, dict]) -> int:
    """``locks.py`` open, the caret in ``_get_loop`` on the line creating the future (its
    number returned), focus on the listing."""
    server, ids = repository
    page.goto(f"{server.url}/reader.html?doc={ids['locks.py']}")
    page.wait_for_selector("body.ready")
    line = line_of(LOCKS, "        fut = self._get_loop().create_future()")
    page.locator(f'.code-line[data-line="{line}"]').scroll_into_view_if_needed()
    assert page.evaluate(CARET_IN_WORD, [line, "_get_loop"])
    return line


def test_the_card_opens_from_the_keyboard_and_gives_focus_back(
    code_page: Page, repository: tuple[LiveServer, dict]
) -> None:
    line = caret_in_get_loop(code_page, repository)
    code_page.keyboard.press("Enter")
    card = code_page.locator(".identifier-card")
    expect(card.locator(".identifier-head")).to_have_text("_get_loop")
    definition = card.locator(".identifier-definition .identifier-link")
    expect(definition).to_be_focused()  # focus moved into the card, on its first control
    for _ in range(6):  # Tab cycles inside the card while it is open
        code_page.keyboard.press("Tab")
        assert code_page.evaluate("document.activeElement.closest('.identifier-card') !== null")
    code_page.keyboard.press("Escape")
    expect(card).to_have_count(0)
    expect(code_page.locator(".code-listing")).to_be_focused()  # and back where it was
    assert code_page.evaluate(CARET_IN_WORD, [line, "_get_loop"])
    code_page.keyboard.press("Enter")
    expect(definition).to_be_focused()
    code_page.keyboard.press("Enter")  # the focused definition: mixins.py at its def line
    assert_opened_at(code_page, repository[1]["mixins.py"], MIXINS, "    def _get_loop(self):")


def test_the_code_view_and_its_card_speak_chinese(
    browser: Browser, repository: tuple[LiveServer, dict]
) -> None:
    server = repository[0]
    with entered_page(browser, server, locale="zh-CN") as page:
        card = clicked_card(
            page, repository, "        fut = self._get_loop().create_future()", "_get_loop"
        )
        expect(page.locator("#doc-meta")).to_contain_text("源代码")  # the format, said in Chinese
        expect(card.locator("h3").first).to_have_text("定义")
        expect(card.locator(".identifier-definition").first).to_contain_text("方法")
        expect(card.locator(".identifier-references")).to_contain_text("处引用")


def test_enter_asks_about_the_framed_blocks_while_the_block_cursor_is_on(
    code_page: Page, repository: tuple[LiveServer, dict]
) -> None:
    """A caret left in a name does not take Enter from the block cursor."""
    caret_in_get_loop(code_page, repository)
    code_page.keyboard.press("j")  # the block cursor frames a block
    expect(code_page.locator(".block-cursor").first).to_be_visible()
    code_page.keyboard.press("Enter")
    expect(code_page.locator(".askbox")).to_be_visible()
    expect(code_page.locator(".identifier-card")).to_have_count(0)


def test_a_method_with_no_calls_nor_callers_says_so_in_one_line(
    code_page: Page, repository: tuple[LiveServer, dict]
) -> None:
    """``Lock.__repr__`` calls nothing of the repository and nothing calls it: one line
    says so, not two headings over "none"."""
    card = clicked_card(code_page, repository, "    def __repr__(self):", "__repr__")
    card.locator(".identifier-definition .symbol-more").first.click()
    links = card.locator(".symbol-links").first
    expect(links.locator(".none")).to_have_text("No calls or callers in this repository")
    expect(links.locator("h3")).to_have_count(0)
