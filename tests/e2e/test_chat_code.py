"""A chat answer written from code is shown as code (issue 32), in real Chromium against a
real server holding the standard library's ``asyncio/locks.py`` beside a PostgreSQL manual
page, offline: "What calls _wake_up_first?" is answered from the call graph, and its part
(streamed, then in the final answer) is in the monospace font with its indents, as the
reader shows a code answer (``.answer-text.from-code``, tests/e2e/test_code_reader.py),
and so are the sources it cites; the manual part of the same question and a question about
the manual alone are not; a reopened conversation shows its code answer as code again."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.conftest import entered_page
from e2e.live import LiveServer, add_by_cli, live_server
from e2e.test_chat_ui import ask, open_chat

LOCKS = Path(asyncio.__file__).parent / "locks.py"
TRUNCATE = "manuals/postgresql-15-html/sql-truncate.html"
CALLERS = "What calls _wake_up_first?"
PROSE = "What does TRUNCATE do?"
FONTS = "nodes => nodes.map(n => getComputedStyle(n).fontFamily.toLowerCase())"

# The class of each part's answer as it streams in, before the final answer replaces them.
WATCH_PARTS = """() => {
  window.partClasses = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.classList?.contains("chat-part")) continue;
      window.partClasses.push(n.querySelector("p").className);
    }
  }).observe(document.querySelector("#chat-log"), {subtree: true, childList: true});
}"""


@pytest.fixture(scope="module")
def server(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    home = tmp_path_factory.mktemp("e2e-chat-code") / "home"
    add_by_cli(home, LOCKS, evaldata / TRUNCATE)
    with live_server(home) as running:
        yield running


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    with entered_page(browser, server) as page:
        open_chat(page, server)
        yield page


def font(locator: Locator) -> str:
    family: str = locator.evaluate("n => getComputedStyle(n).fontFamily.toLowerCase()")
    return family


def test_a_code_part_is_shown_as_code_and_a_prose_part_is_not(page: Page, artifacts: Path) -> None:
    page.evaluate(WATCH_PARTS)
    turn = ask(page, f"{CALLERS} And also {PROSE[0].lower()}{PROSE[1:]}")
    streamed: list[str] = page.evaluate("window.partClasses")
    assert streamed == ["answer-text from-code", ""], streamed  # the code part, then prose
    text = turn.locator(".chat-answer-text")
    code = text.locator(".from-code")
    expect(code).to_have_count(1)
    expect(code).to_have_class(re.compile(r"\banswer-text\b"))  # the reader's own class
    expect(code).to_contain_text("Lock.acquire")  # the call graph's callers
    assert "mono" in font(code), font(code)
    assert code.evaluate("n => getComputedStyle(n).whiteSpace") == "pre-wrap"  # its indents
    assert "mono" not in font(text), font(text)  # the manual part around it
    expect(text).to_contain_text("TRUNCATE")
    quoted = turn.locator(".chat-source blockquote")
    fonts = quoted.evaluate_all(FONTS)
    shown_as_code = quoted.evaluate_all("qs => qs.map(q => q.classList.contains('code'))")
    assert True in shown_as_code and False in shown_as_code, shown_as_code
    for is_code, family in zip(shown_as_code, fonts, strict=True):
        assert ("mono" in family) == is_code, (shown_as_code, fonts)
    page.screenshot(path=str(artifacts / "chat-code-answer.png"))


def test_a_prose_answer_is_not_shown_as_code(page: Page) -> None:
    turn = ask(page, PROSE)
    text = turn.locator(".chat-answer-text")
    expect(text).to_contain_text("TRUNCATE")
    expect(text.locator(".from-code")).to_have_count(0)
    assert "mono" not in font(text), font(text)
    fonts = turn.locator(".chat-source blockquote").evaluate_all(FONTS)
    assert fonts and not any("mono" in f for f in fonts), fonts


def test_a_reopened_code_answer_is_shown_as_code(page: Page, server: LiveServer) -> None:
    turn = ask(page, CALLERS)
    conversation = turn.get_attribute("data-conversation")
    open_chat(page, server, f"?c={conversation}")
    reopened = page.locator(".chat-turn")
    expect(reopened).to_have_count(1)
    code = reopened.locator(".chat-answer-text .from-code")
    expect(code).to_contain_text("Lock.acquire")
    assert "mono" in font(code), font(code)
    fonts = reopened.locator(".chat-source blockquote").evaluate_all(FONTS)
    assert fonts and all("mono" in f for f in fonts), fonts  # the callers' lines
