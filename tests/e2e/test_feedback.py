"""Thumbs on an answer in the reader panel (issue 16): a thumb is sent at once (the
session's CSRF token with it), the reason box it opens sends the same rating again with
the reason; the API then holds one record for the turn, with that reason; the thumbs are
there on a streamed answer too, drawn as SVG (an emoji is an empty box without its font)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from e2e.conftest import Library
from e2e.reader import open_reader, wait_for_answer
from e2e.test_threads import opened_thread


def _feedback(library: Library) -> list[dict[str, object]]:
    server = library.server
    response = httpx.get(server.url + "/api/feedback", headers=server.headers, timeout=30)
    response.raise_for_status()
    records: list[dict[str, object]] = response.json()["feedback"]
    return records


def test_a_thumb_and_its_reason_reach_the_api(page: Page, library: Library) -> None:
    answer = opened_thread(page, library, "What does the literature graph contain?")
    turn = page.locator(".turn").last
    down = turn.locator('.feedback-thumb[data-rating="down"]')
    down.click()
    expect(down).to_have_attribute("aria-pressed", "true")
    expect(turn.locator(".feedback-state")).to_have_text("Thanks — noted.")
    (record,) = [r for r in _feedback(library) if r["turn_id"] == answer["turn_id"]]
    assert record["rating"] == "down" and record["reason"] == ""
    turn.locator(".feedback-reason-text").fill("Too long: two sentences would do")
    turn.locator(".feedback-reason button").click()
    expect(turn.locator(".feedback-state")).to_have_text("Thanks — your reason is noted.")
    (again,) = [r for r in _feedback(library) if r["turn_id"] == answer["turn_id"]]
    assert again["id"] == record["id"] and again["reason"] == "Too long: two sentences would do"
    assert again["conversation_id"] == answer["thread_id"]
    assert again["judged"]["question"] == "What does the literature graph contain?"  # type: ignore[index]


def test_a_streamed_answer_has_its_thumbs(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["manual"])
    box = page.locator(".composer-input")
    box.fill("What does SELECT DISTINCT do?")
    box.press("Enter")
    wait_for_answer(page)
    up = page.locator('.turn .feedback-thumb[data-rating="up"]').last
    expect(up.locator("svg.icon")).to_have_count(1)  # drawn, not an emoji that needs a font
    expect(up).to_have_text("")
    up.click()
    expect(up).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".turn .feedback-state").last).to_have_text("Thanks — noted.")
    assert any(r["rating"] == "up" for r in _feedback(library))
