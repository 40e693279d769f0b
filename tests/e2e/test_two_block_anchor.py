"""A drag over two blocks anchors both, in Chromium: the selection carries every block's
span, the question sends them all (``anchor.spans``), and the stored turn keeps them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from e2e.conftest import Library
from e2e.reader import CHAR_RECT, AskRequests, open_reader, pick_block, wait_for_answer


def next_paragraph(structure: dict[str, Any], block: dict[str, Any]) -> dict[str, Any]:
    """The paragraph after ``block`` on its page (a footnote or caption between is fine)."""
    for other in structure["blocks"][block["order"] + 1 :]:
        if other["kind"] == "paragraph" and len(other["text"]) >= 40 and other["boxes"]:
            assert other["page"] == block["page"], "no second paragraph on the page"
            return other
    raise AssertionError("no paragraph after the first")


def drag(page: Page, start: tuple[str, int], last: tuple[str, int]) -> None:
    """Press on character ``start`` of one block and release on character ``last`` of another."""
    page.evaluate(CHAR_RECT, [start[0], start[1], True])
    a = page.evaluate(CHAR_RECT, [start[0], start[1], False])
    b = page.evaluate(CHAR_RECT, [last[0], last[1], False])
    page.mouse.move(a["left"] + 0.5, (a["top"] + a["bottom"]) / 2)
    page.mouse.down()
    page.mouse.move(b["right"] - 0.5, (b["top"] + b["bottom"]) / 2, steps=12)
    page.mouse.up()


def test_a_drag_over_two_blocks_anchors_both(page: Page, library: Library, artifacts: Path) -> None:
    doc_id = library.ids["paper"]
    structure = library.server.structure(doc_id)
    first = pick_block(structure, page=2, lines=2, min_chars=120)
    second = next_paragraph(structure, first)
    start = len(first["text"]) - 40
    end = 30
    asked = AskRequests(page)
    open_reader(page, library.server.url, doc_id)
    drag(page, (first["id"], start), (second["id"], end - 1))
    expect(page.locator(".fab")).to_be_visible()  # the selection is read once it settles

    selected = page.evaluate("window.askalong.selection()")
    spans = [(s["block_id"], s["start"], s["end"]) for s in selected["spans"]]
    assert spans[0] == (first["id"], start, len(first["text"]))
    assert spans[-1] == (second["id"], 0, end)
    page.screenshot(path=str(artifacts / "two-block-selection.png"))

    page.locator(".fab-ask").click()
    page.locator(".askbox .chip", has_text="Explain").click()
    turn = wait_for_answer(page)
    expect(turn).to_be_visible()
    anchor = asked.bodies[0]["anchor"]
    assert (anchor["block_id"], anchor["start"], anchor["end"]) == spans[0]
    assert [(s["block_id"], s["start"], s["end"]) for s in anchor["spans"]] == spans

    thread_id = page.evaluate("window.askalong.panel.thread.id")
    stored = httpx.get(
        f"{library.server.url}/api/threads/{thread_id}", headers=library.server.headers
    ).json()
    kept = stored["turns"][0]["anchor"]["spans"]
    assert [(s["block_id"], s["start"], s["end"]) for s in kept] == spans
