"""The reader in a real headless Chromium against a real server: library, page images
with their text layer, selection -> floating button -> ask box, exact highlights, and the
ask flow with the real offline answerer: Explain, quotes that highlight their exact place,
follow-ups that keep their anchor, re-anchoring, reopening a thread, the not-covered state."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import Library
from e2e.reader import (
    AskRequests,
    Target,
    box,
    drag_select,
    inside_viewport,
    open_reader,
    pick_block,
    selection_rects,
    sentence_in,
    wait_for_answer,
)

DOCS = ["paper", "manual", "chinese"]


def targets(structure: dict[str, Any]) -> tuple[Target, Target, Target]:
    """A sentence to select on the first screen, a later one to quote, a third to re-anchor."""
    if structure["document"]["format"] == "pdf":
        # Chinese prose has full stops: that skips the journal's masthead on page 1
        stop = "。" if _chinese(structure) else ""
        first = pick_block(structure, page=1, lines=2, min_chars=60, needs=stop)
        later = pick_block(structure, page=2, min_chars=60)
        third = pick_block(structure, page=1, min_chars=30, after=first["order"] + 1)
    else:
        first = pick_block(structure)
        later = pick_block(structure, after=len(structure["blocks"]) // 2)
        third = pick_block(structure, after=first["order"] + 1)
    return sentence_in(first), sentence_in(later), sentence_in(third)


def _chinese(structure: dict[str, Any]) -> bool:
    return any("。" in b["text"] for b in structure["blocks"][:20])


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))


def test_the_tokened_address_leaves_a_cookie_scripts_cannot_read(
    page: Page, library: Library
) -> None:
    """A page entered through ``?token=``: the address is clean again, the session cookie
    is HttpOnly (invisible to the page's scripts) and the API answers."""
    page.context.clear_cookies()
    page.goto(library.server.entry("/"))
    assert page.url == library.server.url + "/"
    assert page.evaluate("document.cookie") == ""
    status = page.evaluate("fetch('/api/documents').then((r) => r.status)")
    assert status == 200
    fresh = page.context.browser.new_context()  # type: ignore[union-attr]
    try:
        stranger = fresh.new_page()
        assert stranger.goto(library.server.url + "/").status == 401  # type: ignore[union-attr]
    finally:
        fresh.close()


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


FOLLOW_UPS = {  # (a follow-up, a question after re-anchoring), in the document's language
    "paper": ("What follows from this?", "And what does this part say?"),
    "manual": ("What follows from this?", "And what does this part say?"),
    "chinese": ("这说明了什么？", "这里讲的是什么？"),
}
VERDICT_LABELS = {"Supported", "Partly supported", "Doubtful", "Not checked"}


@pytest.mark.parametrize("key", DOCS)
def test_explain_answer_quote_follow_up_re_anchor_and_reopen(
    page: Page, library: Library, artifacts: Path, key: str
) -> None:
    structure = library.server.structure(library.ids[key])
    first, _, third = targets(structure)
    asked = AskRequests(page)
    open_reader(page, library.server.url, library.ids[key])

    drag_select(page, first)
    page.locator(".fab-ask").click()
    page.locator(".askbox .chip", has_text="Explain").click()
    turn = wait_for_answer(page)
    expect(turn).to_have_attribute("data-status", "answered")
    body = asked.bodies[0]
    assert body["intent"] == "explain" and body["question"] == "" and body["thread_id"] is None
    assert (body["anchor"]["block_id"], body["anchor"]["start"], body["anchor"]["end"]) == (
        first.block_id,
        first.start,
        first.end,
    )
    cards = turn.locator(".quote-card")
    assert cards.count() >= 1
    assert set(turn.locator(".quote-card .badge").all_text_contents()) <= VERDICT_LABELS
    assert turn.locator(".answer-text").text_content()
    expect(turn.locator(".answer-text")).not_to_have_class(re.compile(r"\bfrom-code\b"))
    shot(page, artifacts, f"{key}-3-answer")

    quote_text = cards.first.locator("blockquote").text_content()
    cards.first.click()
    assert page.evaluate("window.askalong.highlightedText()") == quote_text
    assert inside_viewport(page.evaluate("window.askalong.highlightMarks()"), page)
    shot(page, artifacts, f"{key}-4-quote-highlighted")

    chip = turn.locator(".anchor-chip .chip-text").text_content()
    follow_up, after_reanchor = FOLLOW_UPS[key]
    _follow_up(page, follow_up)
    thread_id = asked.bodies[1]["thread_id"]
    assert thread_id and asked.bodies[1]["anchor"] == body["anchor"]  # it keeps its anchor
    expect(page.locator(".turn").last.locator(".anchor-chip .chip-text")).to_have_text(chip or "")
    shot(page, artifacts, f"{key}-5-follow-up")

    drag_select(page, third)
    page.locator(".fab-reanchor").click()
    expect(page.locator(".composer .chip-text")).to_contain_text(third.text[:20])
    _follow_up(page, after_reanchor)
    moved = asked.bodies[2]["anchor"]
    assert (moved["block_id"], moved["start"], moved["end"]) == (
        third.block_id,
        third.start,
        third.end,
    )
    assert asked.bodies[2]["thread_id"] == thread_id
    expect(page.locator(".turn").last.locator(".chip-text")).to_contain_text(third.text[:20])
    expect(page.locator(".turn")).to_have_count(3)
    shot(page, artifacts, f"{key}-6-re-anchored")

    _reopen(page, thread_id, [chip or "", chip or "", third.text[:20]])
    shot(page, artifacts, f"{key}-7-reopened")


def _follow_up(page: Page, question: str) -> None:
    count = page.locator(".turn").count()
    page.locator(".composer-input").fill(question)
    page.keyboard.press("Enter")
    expect(page.locator(".turn")).to_have_count(count + 1)
    wait_for_answer(page)


def _reopen(page: Page, thread_id: str, chips: list[str]) -> None:
    """New thread, then the thread again from the Threads tab, each turn with its anchor."""
    page.get_by_role("button", name="New").click()
    expect(page.locator(".turn")).to_have_count(0)
    page.locator(".tab", has_text="Threads").click()
    item = page.locator(f'.thread-item[data-id="{thread_id}"]')
    expect(item.locator(".thread-meta")).to_contain_text("3 turns")
    item.click()
    turns = page.locator(".turn")
    expect(turns).to_have_count(3)
    for i, text in enumerate(chips):
        expect(turns.nth(i).locator(".chip-text")).to_contain_text(text.strip("“”…")[:20])
        expect(turns.nth(i)).to_have_attribute("data-status", re.compile("answered|not_covered"))
    expect(page.locator(".composer .chip-text")).to_contain_text(chips[-1].strip("“”…")[:20])


def test_not_covered_says_what_was_searched(page: Page, library: Library, artifacts: Path) -> None:
    """A question the paper does not cover (asked through the API, with no anchor), shown
    when its thread is reopened in the reader: no quotes, and what was searched."""
    asked = httpx.post(
        library.server.url + "/api/ask",
        json={
            "document_id": library.ids["paper"],
            "question": "Which zebra plays the xylophone?",
            "stream": False,
        },
        headers=library.server.headers,
        timeout=30,
    ).json()
    assert asked["status"] == "not_covered"
    open_reader(page, library.server.url, library.ids["paper"])
    page.locator(".tab", has_text="Threads").click()
    page.locator(f'.thread-item[data-id="{asked["thread_id"]}"]').click()
    turn = page.locator(".turn")
    expect(turn).to_have_attribute("data-status", "not_covered")
    expect(turn.locator(".not-covered")).to_contain_text("does not cover")
    expect(turn.locator(".searched li").first).to_contain_text("zebra")
    assert turn.locator(".quote-card").count() == 0
    shot(page, artifacts, "paper-not-covered")


MARKUP = (
    "Markup in a document\n\n"
    'This sentence shows <script>alert("owned")</script> and <img src=x onerror=alert(1)> '
    "as text, never as markup.\n"
)


def test_markup_in_a_document_is_shown_as_text(
    page: Page, library: Library, artifacts: Path, tmp_path: Path
) -> None:
    path = tmp_path / "markup.txt"
    path.write_text(MARKUP, encoding="utf-8")
    document_id = library.server.upload(path)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        structure = library.server.structure(document_id)
        block = next(b for b in structure["blocks"] if "<script>" in b["text"])  # type: ignore[union-attr]
        open_reader(page, library.server.url, document_id)
        expect(page.locator("#document")).to_contain_text('<script>alert("owned")</script>')
        expect(page.locator("#document")).to_contain_text("<img src=x onerror=alert(1)>")
        assert page.locator("#document script, #document img").count() == 0
        drag_select(page, sentence_in(block))
        page.locator(".fab-ask").click()
        page.locator(".askbox .chip", has_text="Explain").click()
        wait_for_answer(page)  # Explain quotes the document around it, never the selection
        _follow_up(page, "What does this sentence show as text, never as markup?")
        turn = page.locator(".turn").last
        expect(turn.locator(".quote-card blockquote").first).to_contain_text("<script>")
        assert page.locator("#panel script, #panel img").count() == 0
        shot(page, artifacts, "markup-as-text")
        assert dialogs == []
    finally:
        httpx.delete(
            f"{library.server.url}/api/documents/{document_id}",
            headers=library.server.headers,
            timeout=30,
        )
