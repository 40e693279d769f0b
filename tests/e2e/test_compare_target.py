"""Compare with… asks "with what?" before anything is sent (issue 13 item 6), in real
Chromium against a real server: an input in the ask box with suggestions taken from the
document; a suggestion (or a typed term) sends the compare with its second term; the box
stays inside the window as its suggestions arrive (it is placed again as it grows)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from e2e.asking import Asking, ask_box_at
from e2e.conftest import entered_page
from e2e.reader import AskRequests, wait_for_answer

SELECTION = "We consider two sets of negative examples"


def open_compare(asking_page: Page, asking: Asking) -> AskRequests:
    asks = ask_box_at(asking_page, asking, SELECTION)
    asking_page.locator(".askbox .chip", has_text="Compare with").click()
    return asks


def test_compare_asks_with_what_and_sends_a_suggestion(asking_page: Page, asking: Asking) -> None:
    asks = open_compare(asking_page, asking)
    box = asking_page.locator(".askbox .compare-target")
    expect(box).to_be_visible()
    expect(box.locator(".compare-input")).to_be_focused()
    suggestions = box.locator(".compare-suggestion")
    expect(suggestions.first).to_be_visible()
    headings = {e["text"] for e in asking.server.structure(asking.paper)["outline"]}
    offered = suggestions.all_text_contents()
    assert any(any(h.endswith(o) for h in headings) for o in offered)  # from the document
    assert asks.bodies == []  # nothing sent before the second term is known
    target = offered[0]
    suggestions.first.click()
    turn = wait_for_answer(asking_page)
    [body] = asks.bodies
    assert (
        body["intent"] == "compare" and body["question"] == f"How does this differ from {target}?"
    )
    expect(turn.locator(".question")).to_contain_text(target)


def test_a_typed_term_is_compared_and_an_empty_one_is_not_sent(
    asking_page: Page, asking: Asking
) -> None:
    asks = open_compare(asking_page, asking)
    field = asking_page.locator(".askbox .compare-input")
    field.press("Enter")  # empty: nothing to compare with
    expect(field).to_be_visible()
    assert asks.bodies == []
    field.fill("random negatives")
    field.press("Enter")
    wait_for_answer(asking_page)
    [body] = asks.bodies
    assert body["question"] == "How does this differ from random negatives?"


def test_the_box_stays_in_the_window_as_its_suggestions_arrive(
    browser: Browser, asking: Asking
) -> None:
    with entered_page(browser, asking.server, viewport=(1000, 700), landing=None) as page:
        open_compare(page, asking)
        box = page.locator(".askbox")
        expect(box.locator(".compare-suggestion").first).to_be_visible()
        page.wait_for_timeout(300)  # placed again after it grew
        rect = box.bounding_box()
        assert rect is not None
        assert rect["y"] >= 0 and rect["y"] + rect["height"] <= 700 + 0.5, rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 1000 + 0.5, rect
