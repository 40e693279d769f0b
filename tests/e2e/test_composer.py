"""Asking without a selection, in real Chromium against a real server (issue 13 item 5):
the composer is always at the bottom of the panel and asks the whole document; the anchor
chip above it can be dropped (×) as well as switched; a question about another part of
the document is answered from the whole document and the turn says so; from the library,
several or all documents are asked as one."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from e2e.asking import FUTURE_WORK, Asking, ask_box_at
from e2e.conftest import entered_page
from e2e.reader import AskRequests, open_reader, wait_for_answer


def test_the_whole_document_is_asked_with_nothing_selected(
    asking_page: Page, asking: Asking
) -> None:
    asks = AskRequests(asking_page)
    open_reader(asking_page, asking.server.url, asking.paper)
    chip = asking_page.locator(".composer .anchor-chip")
    expect(chip).to_contain_text("whole document")
    expect(asking_page.locator(".composer .anchor-drop")).to_be_hidden()
    asking_page.locator(".composer-input").fill("How are the negatives for the triplets chosen?")
    asking_page.keyboard.press("Enter")
    turn = wait_for_answer(asking_page)
    expect(turn).to_have_attribute("data-status", "answered")
    [body] = asks.bodies
    assert body["anchor"] is None and body["whole"] is True and body["thread_id"] is None
    assert body["document_id"] == asking.paper
    expect(turn.locator(".anchor-chip")).to_contain_text("whole document")
    expect(turn.locator(".quote-card").first).to_be_visible()


def test_the_anchor_chip_can_be_dropped(asking_page: Page, asking: Asking) -> None:
    asks = ask_box_at(asking_page, asking, FUTURE_WORK)
    asking_page.locator(".askbox .chip", has_text="Explain").click()
    wait_for_answer(asking_page)
    expect(asking_page.locator(".composer .chip-text")).to_contain_text("We used citations")
    asking_page.locator(".composer .anchor-drop").click()
    expect(asking_page.locator(".composer .anchor-chip")).to_contain_text("whole document")
    asking_page.locator(".composer-input").fill("What does SCIDOCS evaluate?")
    asking_page.keyboard.press("Enter")
    expect(asking_page.locator(".turn")).to_have_count(2)
    turn = wait_for_answer(asking_page)
    first, follow = asks.bodies
    assert follow["thread_id"] and follow["anchor"] is None and follow["whole"] is True
    assert first["anchor"]["block_id"]  # the first was anchored
    expect(turn.locator(".anchor-chip")).to_contain_text("whole document")


def test_a_narrow_chinese_anchor_chip_keeps_its_page_whole_and_cuts_the_rest(
    browser: Browser, asking: Asking
) -> None:
    """The page is the chip's shortest part and says the most: it never shrinks (in Chinese
    the proportional cut left "第 …" of "第 6 页"); the section and the quote are cut."""
    with entered_page(browser, asking.server, (800, 600), "zh-CN", landing=None) as page:
        ask_box_at(page, asking, FUTURE_WORK)
        page.locator('.askbox .chip[data-intent="explain"]').click()
        wait_for_answer(page)
        chip = page.locator(".composer .anchor-chip")
        expect(chip.locator(".chip-page")).to_have_text(re.compile(r"^第 \d+ 页$"))
        cut = dict(
            chip.evaluate(
                "c => [...c.querySelectorAll('span')]"
                ".map(s => [s.className, s.scrollWidth > s.clientWidth])"
            )
        )
        assert cut["chip-page"] is False and cut["chip-text"] is True


def test_a_question_about_another_section_says_it_left_the_anchor(
    asking_page: Page, asking: Asking
) -> None:
    """The issue's reproduction: anchored on the future-work sentence, the question about
    the training negatives is answered from the whole document, and the turn says so."""
    ask_box_at(asking_page, asking, FUTURE_WORK)
    asking_page.locator(".askbox-input").fill("How are the negatives for the triplets chosen?")
    asking_page.keyboard.press("Enter")
    turn = wait_for_answer(asking_page)
    expect(turn.locator(".answer-scope")).to_contain_text("Answered from the whole document")
    expect(turn.locator(".anchor-chip .chip-text")).to_contain_text("We used citations")
    quotes = turn.locator(".quote-card blockquote").all_text_contents()
    assert quotes and not any("We used citations to build triplets" in q for q in quotes)


def test_the_library_asks_the_picked_documents_as_one(asking_page: Page, asking: Asking) -> None:
    asking_page.goto(asking.server.url + "/")
    asking_page.wait_for_selector("body.ready")
    bar = asking_page.locator("#ask-picked")
    expect(bar).to_be_visible()
    for doc in (asking.paper, asking.note):
        asking_page.locator(f'.doc-card[data-id="{doc}"] .doc-pick').check()
    bar.get_by_role("button", name="Ask the 2 picked").click()
    asking_page.wait_for_url("**/collection.html?docs=*")
    asking_page.wait_for_selector("body.ready")
    asks = AskRequests(asking_page)
    expect(asking_page.locator("#members .doc-card")).to_have_count(2)
    asking_page.locator(".composer-input").fill("What causes tides?")
    asking_page.keyboard.press("Enter")
    turn = wait_for_answer(asking_page)
    expect(turn).to_have_attribute("data-status", "answered")
    [body] = asks.bodies
    assert sorted(body["documents"]) == sorted([asking.paper, asking.note])
    assert body["document_id"] is None and body["anchor"] is None
    expect(turn.locator(".quote-card blockquote").first).to_contain_text("Moon")


def test_the_library_asks_all_documents(asking_page: Page, asking: Asking) -> None:
    asking_page.goto(asking.server.url + "/")
    asking_page.wait_for_selector("body.ready")
    asking_page.locator("#ask-picked").get_by_role("button", name="Ask all documents").click()
    asking_page.wait_for_url("**/collection.html?docs=*")
    asking_page.wait_for_selector("body.ready")
    expect(asking_page.locator("#members .doc-card")).to_have_count(2)
    expect(asking_page.locator(".composer .anchor-chip")).to_contain_text("these 2 documents")
