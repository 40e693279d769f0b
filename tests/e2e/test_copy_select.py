"""Copying and selecting in a PDF's text layer, in a real Chromium: a copy across a line
end keeps the space between the words (the layer's lines are absolutely placed spans with
nothing between them, so the browser's own copy glued "the" and "query"), and a drag from
the foot of one column to the top of the next leaves out the footnote between them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from e2e.conftest import entered_page
from e2e.live import LiveServer
from e2e.pixels import show_page
from e2e.reader import CHAR_RECT, Target, drag_select, open_reader

PAPER = "pdf/en_2col/naacl06-shinyama.pdf"
# What a copy puts on the clipboard: what the reader's handler set, read in the copy event
# after it, or else what the browser copies itself (the selection's text).
COPY = """() => {
  let copied = null;
  window.addEventListener("copy", (e) => (copied = e.clipboardData.getData("text/plain")),
                          { once: true });
  document.execCommand("copy");
  return copied || getSelection().toString();
}"""


@pytest.fixture(scope="module")
def paper(evaldata: Path, reading_room: LiveServer) -> tuple[Any, ...]:
    document = reading_room.upload(evaldata / PAPER)
    return reading_room, document, reading_room.structure(document)


@pytest.fixture
def reader_page(browser: Browser, paper: tuple[LiveServer, str, Any]) -> Iterator[Page]:
    with entered_page(browser, paper[0], (1200, 1500), landing=None) as page:
        yield page


def test_a_copy_across_a_line_end_keeps_the_space(
    reader_page: Page, paper: tuple[LiveServer, str, Any]
) -> None:
    server, document, structure = paper
    block, first, second = next(
        (b, one, two)
        for b in structure["blocks"]
        if b["page"] == 1 and b["kind"] == "paragraph" and len(b["text"]) > 200
        for one, two in zip(b["boxes"], b["boxes"][1:], strict=False)
        if b["text"][one[5] : one[5] + 1] == " " and one[5] - one[4] > 20
    )
    start, end = first[5] - 12, second[4] + 10  # the end of one line, the start of the next
    text = block["text"]
    open_reader(reader_page, server.url, document)
    drag_select(reader_page, Target(block["id"], start, end, text[start:end]))
    copied = reader_page.evaluate(COPY)
    assert copied == text[start:end], f"copied {copied!r}"


def test_a_drag_across_columns_leaves_out_the_footnote_between(
    reader_page: Page, paper: tuple[LiveServer, str, Any]
) -> None:
    """Page 5: the left column's last paragraph, its footnotes, then the right column."""
    server, document, structure = paper
    on_page = [b for b in structure["blocks"] if b["page"] == 5]
    footnote = next(b for b in reversed(on_page) if b["kind"] == "footnote")
    before = max(
        (b for b in on_page if b["order"] < footnote["order"] and b["kind"] == "paragraph"),
        key=lambda b: b["order"],
    )
    after = next(
        b
        for b in on_page
        if b["order"] > footnote["order"] and len(b["boxes"]) >= 5 and b["kind"] == "paragraph"
    )
    start = before["boxes"][-1][4]
    open_reader(reader_page, server.url, document)
    show_page(reader_page, 5)
    reader_page.evaluate(CHAR_RECT, [before["id"], start, True])  # into view
    first = reader_page.evaluate(CHAR_RECT, [before["id"], start, False])
    last = reader_page.evaluate(CHAR_RECT, [after["id"], 20, False])
    reader_page.mouse.move(first["left"] + 0.5, (first["top"] + first["bottom"]) / 2)
    reader_page.mouse.down()
    reader_page.mouse.move(last["right"] - 0.5, (last["top"] + last["bottom"]) / 2, steps=8)
    reader_page.mouse.up()
    reader_page.wait_for_function("() => window.askalong.selection() !== null")
    selection = reader_page.evaluate("window.askalong.selection()")
    chosen = [span["block_id"] for span in selection["spans"]]
    assert chosen[0] == before["id"] and chosen[-1] == after["id"]
    assert footnote["id"] not in chosen
    assert footnote["text"][:30] not in selection["text"]
