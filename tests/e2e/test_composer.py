"""Asking without a selection, in real Chromium against a real server (issue 13 item 5):
the composer is always at the bottom of the panel and asks the whole document; the anchor
chip above it can be dropped (×) as well as switched; a question about another part of
the document is answered from the whole document and the turn says so; from the library,
several or all documents are asked as one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.asking import FUTURE_WORK, Asking, asking_library, select_text
from e2e.conftest import entered_page
from e2e.reader import AskRequests, open_reader, wait_for_answer


@pytest.fixture(scope="module")
def asking(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Asking]:
    yield from asking_library(evaldata, tmp_path_factory.mktemp("e2e-composer"))


@pytest.fixture
def page(browser: Browser, asking: Asking) -> Iterator[Page]:
    with entered_page(browser, asking.server) as page:
        yield page


def test_the_whole_document_is_asked_with_nothing_selected(page: Page, asking: Asking) -> None:
    asks = AskRequests(page)
    open_reader(page, asking.server.url, asking.paper)
    chip = page.locator(".composer .anchor-chip")
    expect(chip).to_contain_text("whole document")
    expect(page.locator(".composer .anchor-drop")).to_be_hidden()
    page.locator(".composer-input").fill("How are the negatives for the triplets chosen?")
    page.keyboard.press("Enter")
    turn = wait_for_answer(page)
    expect(turn).to_have_attribute("data-status", "answered")
    [body] = asks.bodies
    assert body["anchor"] is None and body["whole"] is True and body["thread_id"] is None
    assert body["document_id"] == asking.paper
    expect(turn.locator(".anchor-chip")).to_contain_text("whole document")
    expect(turn.locator(".quote-card").first).to_be_visible()


def test_the_anchor_chip_can_be_dropped(page: Page, asking: Asking) -> None:
    asks = AskRequests(page)
    open_reader(page, asking.server.url, asking.paper)
    select_text(page, asking.server.structure(asking.paper), FUTURE_WORK)
    page.locator(".fab-ask").click()
    page.locator(".askbox .chip", has_text="Explain").click()
    wait_for_answer(page)
    expect(page.locator(".composer .chip-text")).to_contain_text("We used citations")
    page.locator(".composer .anchor-drop").click()
    expect(page.locator(".composer .anchor-chip")).to_contain_text("whole document")
    page.locator(".composer-input").fill("What does SCIDOCS evaluate?")
    page.keyboard.press("Enter")
    expect(page.locator(".turn")).to_have_count(2)
    turn = wait_for_answer(page)
    first, follow = asks.bodies
    assert follow["thread_id"] and follow["anchor"] is None and follow["whole"] is True
    assert first["anchor"]["block_id"]  # the first was anchored
    expect(turn.locator(".anchor-chip")).to_contain_text("whole document")


def test_a_question_about_another_section_says_it_left_the_anchor(
    page: Page, asking: Asking
) -> None:
    """The issue's reproduction: anchored on the future-work sentence, the question about
    the training negatives is answered from the whole document, and the turn says so."""
    open_reader(page, asking.server.url, asking.paper)
    select_text(page, asking.server.structure(asking.paper), FUTURE_WORK)
    page.locator(".fab-ask").click()
    page.locator(".askbox-input").fill("How are the negatives for the triplets chosen?")
    page.keyboard.press("Enter")
    turn = wait_for_answer(page)
    expect(turn.locator(".answer-scope")).to_contain_text("Answered from the whole document")
    expect(turn.locator(".anchor-chip .chip-text")).to_contain_text("We used citations")
    quotes = turn.locator(".quote-card blockquote").all_text_contents()
    assert quotes and not any("We used citations to build triplets" in q for q in quotes)


def test_the_library_asks_the_picked_documents_as_one(page: Page, asking: Asking) -> None:
    page.goto(asking.server.url + "/")
    page.wait_for_selector("body.ready")
    bar = page.locator("#ask-picked")
    expect(bar).to_be_visible()
    for doc in (asking.paper, asking.note):
        page.locator(f'.doc-card[data-id="{doc}"] .doc-pick').check()
    bar.get_by_role("button", name="Ask the 2 picked").click()
    page.wait_for_url("**/collection.html?docs=*")
    page.wait_for_selector("body.ready")
    asks = AskRequests(page)
    expect(page.locator("#members .doc-card")).to_have_count(2)
    page.locator(".composer-input").fill("What causes tides?")
    page.keyboard.press("Enter")
    turn = wait_for_answer(page)
    expect(turn).to_have_attribute("data-status", "answered")
    [body] = asks.bodies
    assert sorted(body["documents"]) == sorted([asking.paper, asking.note])
    assert body["document_id"] is None and body["anchor"] is None
    expect(turn.locator(".quote-card blockquote").first).to_contain_text("Moon")


def test_the_library_asks_all_documents(page: Page, asking: Asking) -> None:
    page.goto(asking.server.url + "/")
    page.wait_for_selector("body.ready")
    page.locator("#ask-picked").get_by_role("button", name="Ask all documents").click()
    page.wait_for_url("**/collection.html?docs=*")
    page.wait_for_selector("body.ready")
    expect(page.locator("#members .doc-card")).to_have_count(2)
    expect(page.locator(".composer .anchor-chip")).to_contain_text("these 2 documents")
