"""The reader in a real headless Chromium against a real server: library, page images
with their text layer, selection -> floating button -> ask box, exact highlights, and the
ask flow with follow-ups and re-anchoring (answers scripted at the HTTP boundary until the
answering endpoint exists)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import Library
from e2e.reader import (
    ScriptedAnswers,
    Target,
    box,
    drag_select,
    inside_viewport,
    open_reader,
    pick_block,
    selection_rects,
    sentence_in,
)

DOCS = ["paper", "manual", "chinese"]


def targets(structure: dict[str, Any]) -> tuple[Target, Target, Target]:
    """A sentence to select on the first screen, a later one to quote, a third to re-anchor."""
    if structure["document"]["format"] == "pdf":
        first = pick_block(structure, page=1, lines=2, min_chars=60)
        later = pick_block(structure, page=2, min_chars=60)
        third = pick_block(structure, page=1, min_chars=30, after=first["order"] + 1)
    else:
        first = pick_block(structure)
        later = pick_block(structure, after=len(structure["blocks"]) // 2)
        third = pick_block(structure, after=first["order"] + 1)
    return sentence_in(first), sentence_in(later), sentence_in(third)


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))


def test_library_lists_the_documents(page: Page, library: Library, artifacts: Path) -> None:
    page.goto(library.server.url + "/")
    cards = page.locator(".doc-card")
    expect(cards).to_have_count(len(library.ids))
    ids = {cards.nth(i).get_attribute("data-id") for i in range(len(library.ids))}
    assert ids == set(library.ids.values())
    expect(page.locator(".doc-card-title", has_text="SELECT")).to_be_visible()
    shot(page, artifacts, "library")


def test_upload_and_remove_in_the_library(
    page: Page, library: Library, artifacts: Path, tmp_path: Path
) -> None:
    note = tmp_path / "notes.md"
    note.write_text("# 读书笔记\n\n随问根据你正在阅读的文档回答问题。\n", encoding="utf-8")
    page.goto(library.server.url + "/")
    page.locator("#file").set_input_files(str(note))
    card = page.locator(".doc-card", has_text="读书笔记")
    expect(card).to_be_visible()
    shot(page, artifacts, "library-uploaded")
    card.get_by_role("button", name="Remove 读书笔记").click()
    expect(page.locator("#confirm")).to_be_visible()
    shot(page, artifacts, "library-confirm-remove")
    page.get_by_role("button", name="Remove", exact=True).click()
    expect(card).to_have_count(0)
    expect(page.locator(".doc-card")).to_have_count(len(library.ids))


@pytest.mark.parametrize("key", ["paper", "chinese"])
def test_pdf_page_one_shows_with_its_text_layer(
    page: Page, library: Library, artifacts: Path, key: str
) -> None:
    structure = library.server.structure(library.ids[key])
    open_reader(page, library.server.url, library.ids[key])
    first = page.locator('.page[data-page="1"]')
    expect(first).to_have_class("page loaded")
    assert page.evaluate("document.querySelector('.page-image').naturalWidth") >= 800
    lines = [
        (b, box_)
        for b in structure["blocks"]
        if b["page"] == 1
        for box_ in b["boxes"]
        if b["text"][box_[4] : box_[5]].strip()
    ]
    spans = first.locator(".text-layer .seg")
    expect(spans).to_have_count(len(lines))
    block, (_, _, _, _, start, end) = lines[len(lines) // 2]
    span = first.locator(f'.seg[data-block="{block["id"]}"][data-start="{start}"]')
    expect(span).to_have_text(block["text"][start:end])
    shot(page, artifacts, f"{key}-page-one")


@pytest.mark.parametrize("key", DOCS)
def test_selection_shows_a_button_that_opens_the_ask_box(
    page: Page, library: Library, artifacts: Path, key: str
) -> None:
    structure = library.server.structure(library.ids[key])
    target, _, _ = targets(structure)
    open_reader(page, library.server.url, library.ids[key])
    drag_select(page, target)
    fab = page.locator(".fab")
    expect(fab).to_be_visible()
    expect(page.locator(".askbox")).to_be_hidden()
    selected = page.evaluate("window.askalong.selection()")
    assert (selected["block_id"], selected["start"], selected["end"]) == (
        target.block_id,
        target.start,
        target.end,
    )
    assert selected["text"] == target.text
    # the button sits beside the end of the selection
    last = selection_rects(page)[-1]
    button = box(page, ".fab-ask")
    assert last["right"] - 2 <= button["x"] <= last["right"] + 40
    assert abs(button["y"] + button["height"] / 2 - (last["top"] + last["bottom"]) / 2) < 24
    shot(page, artifacts, f"{key}-1-selected")

    page.locator(".fab-ask").click()
    askbox = page.locator(".askbox")
    expect(askbox).to_be_visible()
    expect(askbox.locator("textarea")).to_have_attribute(
        "placeholder", "Ask about the selection, or add your question"
    )
    expect(askbox.locator(".chip")).to_have_text(["Explain", "Example", "Compare with…"])
    expect(askbox.locator("textarea")).to_be_focused()
    shot(page, artifacts, f"{key}-2-ask-box")
    page.keyboard.press("Escape")
    expect(askbox).to_be_hidden()


@pytest.mark.parametrize("key", DOCS)
def test_highlight_marks_the_exact_span_in_view(
    page: Page, library: Library, artifacts: Path, key: str
) -> None:
    structure = library.server.structure(library.ids[key])
    _, later, _ = targets(structure)
    open_reader(page, library.server.url, library.ids[key])
    text = page.evaluate(
        "([b, s, e]) => window.askalong.highlight(b, s, e)",
        [later.block_id, later.start, later.end],
    )
    assert text == later.text
    marks = page.evaluate("window.askalong.highlightMarks()")
    assert inside_viewport(marks, page)
    shot(page, artifacts, f"{key}-highlight")


@pytest.mark.parametrize("key", DOCS)
def test_explain_answer_quote_follow_up_and_re_anchor(
    page: Page, library: Library, artifacts: Path, key: str
) -> None:
    structure = library.server.structure(library.ids[key])
    first, later, third = targets(structure)
    quote_page = next(b["page"] for b in structure["blocks"] if b["id"] == later.block_id)
    answers = ScriptedAnswers(page, later, quote_page)
    open_reader(page, library.server.url, library.ids[key])

    drag_select(page, first)
    page.locator(".fab-ask").click()
    page.locator(".askbox .chip", has_text="Explain").click()
    turn = page.locator(".turn").last
    expect(turn.locator(".answer-text")).to_have_text("The passage says what the quote shows.")
    expect(turn.locator(".badge")).to_have_text("Supported")
    asked = answers.requests[0]
    assert asked["intent"] == "explain" and asked["question"] == ""
    assert asked["anchor"]["block_id"] == first.block_id
    assert (asked["anchor"]["start"], asked["anchor"]["end"]) == (first.start, first.end)
    shot(page, artifacts, f"{key}-3-answer")

    turn.locator(".quote-card").first.click()
    assert page.evaluate("window.askalong.highlightedText()") == later.text
    assert inside_viewport(page.evaluate("window.askalong.highlightMarks()"), page)
    shot(page, artifacts, f"{key}-4-quote-highlighted")

    _follow_up(page, "What follows from this?")
    assert answers.requests[1]["thread_id"] == "t1"
    assert answers.requests[1]["anchor"] == asked["anchor"]  # the follow-up keeps its anchor

    drag_select(page, third)
    page.locator(".fab-reanchor").click()
    expect(page.locator(".composer .chip-text")).to_contain_text(third.text[:20])
    _follow_up(page, "And here?")
    moved = answers.requests[2]["anchor"]
    assert (moved["block_id"], moved["start"], moved["end"]) == (
        third.block_id,
        third.start,
        third.end,
    )
    expect(page.locator(".turn")).to_have_count(3)
    shot(page, artifacts, f"{key}-5-re-anchored")


def _follow_up(page: Page, question: str) -> None:
    count = page.locator(".turn").count()
    page.locator(".composer-input").fill(question)
    page.keyboard.press("Enter")
    expect(page.locator(".turn")).to_have_count(count + 1)
    expect(page.locator(".turn").last.locator(".answer-text")).not_to_be_empty()


def test_without_answering_the_panel_says_so(page: Page, library: Library, artifacts: Path) -> None:
    structure = library.server.structure(library.ids["paper"])
    first, _, _ = targets(structure)
    open_reader(page, library.server.url, library.ids["paper"])
    drag_select(page, first)
    page.locator(".fab-ask").click()
    page.locator(".askbox textarea").fill("What is the literature graph?")
    page.keyboard.press("Enter")
    expect(page.locator(".notice")).to_contain_text(
        "answering is not available yet", ignore_case=True
    )
    shot(page, artifacts, "paper-answering-unavailable")
