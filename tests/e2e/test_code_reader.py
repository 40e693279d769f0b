"""A source file in the reader (issue 17): the standard library's ``asyncio/locks.py``,
added through the real server, shown as code (every line numbered, coloured by Pygments);
lines selected inside ``Lock.acquire`` anchor the question at exactly those characters; a
quote of the answer highlights exactly its glyphs (their boxes and the screenshot's
pixels); "go to definition" from the outline jumps to the definition's line, in the same
file and, in a repository's archive, in another file (``mixins.py``'s ``_get_loop``, which
``Lock.acquire`` calls); the dark theme has no serious axe violation (contrast included)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from e2e.a11y import blocking
from e2e.conftest import entered_page
from e2e.live import LiveServer
from e2e.pixels import highlight_share
from e2e.reader import (
    AskRequests,
    Target,
    drag_select,
    open_reader,
    wait_for_answer,
    wait_for_pulse_end,
)

LOCKS = Path(asyncio.__file__).parent / "locks.py"
MIXINS = LOCKS.with_name("mixins.py")
SELECTED = ("fut = self._get_loop().create_future()", "self._waiters.append(fut)")

# The client rectangles of block characters [start, end), from the segments' offsets.
SPAN_RECTS = """([block, start, end]) => {
  const rects = [];
  for (const seg of document.querySelectorAll(`.seg[data-block="${block}"]`)) {
    const from = Math.max(start, +seg.dataset.start), to = Math.min(end, +seg.dataset.end);
    if (from >= to || !seg.textContent.trim()) continue;
    const range = document.createRange();
    range.setStart(seg.firstChild, from - +seg.dataset.start);
    range.setEnd(seg.firstChild, to - +seg.dataset.start);
    rects.push(...[...range.getClientRects()].filter(r => r.width > 0).map(r => r.toJSON()));
  }
  return rects;
}"""


@pytest.fixture(scope="module")
def code_server(reading_room: LiveServer) -> tuple[LiveServer, str]:
    return reading_room, reading_room.upload(LOCKS)


@pytest.fixture
def code_page(browser: Browser, code_server: tuple[LiveServer, str]) -> Iterator[Page]:
    with entered_page(browser, code_server[0], landing=None) as page:
        yield page


def acquire_target(structure: dict[str, Any]) -> Target:
    """The two selected lines of ``Lock.acquire``, from the first's first character."""
    block = next(b for b in structure["blocks"] if b["section_path"] == ["Lock", "acquire"])
    start = block["text"].index(SELECTED[0])
    end = block["text"].index(SELECTED[1]) + len(SELECTED[1])
    return Target(block["id"], start, end, block["text"][start:end])


def test_code_is_shown_with_line_numbers_and_colours(
    code_page: Page, code_server: tuple[LiveServer, str]
) -> None:
    server, doc = code_server
    open_reader(code_page, server.url, doc)
    lines = LOCKS.read_text(encoding="utf-8").splitlines()
    expect(code_page.locator(".code-line")).to_have_count(len(lines))
    number = lines.index("    async def acquire(self):") + 1
    row = code_page.locator(f'.code-line[data-line="{number}"]')
    expect(row.locator(".lc")).to_have_text(lines[number - 1])
    expect(row.locator(".ln")).to_have_text(str(number))
    expect(row.locator(".tok-keyword").first).to_have_text("async")
    expect(row.locator(".tok-function")).to_have_text("acquire")
    colours = code_page.evaluate(
        "() => ['.tok-keyword', '.tok-string', '.tok-comment'].map("
        "s => getComputedStyle(document.querySelector(s)).color)"
    )
    assert len(set(colours)) == 3, colours


def test_select_lines_in_acquire_ask_and_the_quote_is_highlighted_over_its_glyphs(
    code_page: Page, code_server: tuple[LiveServer, str], artifacts: Path
) -> None:
    server, doc = code_server
    structure = server.structure(doc)
    target = acquire_target(structure)
    asked = AskRequests(code_page)
    open_reader(code_page, server.url, doc)
    drag_select(code_page, target)
    expect(code_page.locator(".fab-ask")).to_be_visible()
    selection = code_page.evaluate("window.askalong.selection()")
    assert (selection["block_id"], selection["start"], selection["end"]) == (
        target.block_id,
        target.start,
        target.end,
    )
    assert selection["text"] == target.text  # the lines' own characters, no line numbers
    code_page.locator(".fab-ask").click()
    code_page.locator(".askbox .chip", has_text="Explain").click()
    turn = wait_for_answer(code_page)
    expect(turn).to_have_attribute("data-status", "answered")
    answer = turn.locator(".answer-text")
    expect(answer).to_have_class(re.compile(r"\bfrom-code\b"))  # written from the code's lines
    font = answer.evaluate("a => getComputedStyle(a).fontFamily")
    assert "mono" in font.lower(), font  # shown as code, its indents kept
    fonts = "qs => qs.map(q => getComputedStyle(q).fontFamily.toLowerCase())"
    quoted_fonts = turn.locator(".quote-card blockquote, .answer-passage blockquote")
    assert all("mono" in f for f in quoted_fonts.evaluate_all(fonts))  # quotes of code too
    code_page.screenshot(path=str(artifacts / "code-answer-lines.png"))
    anchor = asked.bodies[0]["anchor"]
    assert (anchor["block_id"], anchor["start"], anchor["end"]) == (
        target.block_id,
        target.start,
        target.end,
    )
    card = turn.locator(".quote-card").first
    quoted = card.locator("blockquote").text_content()
    spacing = "qs => qs.map(q => getComputedStyle(q).whiteSpace)"
    kept = turn.locator(".quote-card blockquote").evaluate_all(spacing)
    assert kept and set(kept) == {"pre-wrap"}  # a quote of code keeps its lines and indents
    card.click()
    assert code_page.evaluate("window.askalong.highlightedText()") == quoted
    wait_for_pulse_end(code_page)
    marks = code_page.evaluate("window.askalong.highlightMarks()")
    last = code_page.evaluate("window.askalong.lastHighlight()")
    glyphs = code_page.evaluate(SPAN_RECTS, last)
    assert glyphs and marks
    for glyph in glyphs:  # every quoted glyph lies inside a mark
        assert any(
            m["left"] <= glyph["left"] + 1
            and glyph["right"] <= m["right"] + 1
            and m["top"] <= glyph["top"] + 1
            and glyph["bottom"] <= m["bottom"] + 1
            for m in marks
        ), glyph
    path = artifacts / "code-reader-quote.png"
    code_page.screenshot(path=str(path))
    pixels = np.asarray(Image.open(path).convert("RGB"))
    shares = [highlight_share(pixels, g) for g in glyphs]
    assert min(shares) > 0.5, shares


def assert_line_shown(page: Page, path: Path, line_text: str) -> None:
    """The highlight is exactly ``path``'s line ``line_text``: its text, its marks on that
    row of the code view (by their boxes), the row inside the scrolled view."""
    lines = path.read_text(encoding="utf-8").splitlines()
    number = lines.index(line_text) + 1
    assert page.evaluate("window.askalong.highlightedText()") == line_text
    row_box = page.locator(f'.code-line[data-line="{number}"]').bounding_box()
    marks = page.evaluate("window.askalong.highlightMarks()")
    assert row_box is not None and marks
    middle = row_box["y"] + row_box["height"] / 2
    assert all(abs(m["top"] + m["height"] / 2 - middle) < 4 for m in marks)
    scroller = page.locator("#reader-scroll").bounding_box()
    assert scroller is not None
    assert scroller["y"] <= row_box["y"] <= scroller["y"] + scroller["height"]


def test_go_to_definition_jumps_to_the_definitions_line(
    code_page: Page, code_server: tuple[LiveServer, str]
) -> None:
    server, doc = code_server
    open_reader(code_page, server.url, doc)
    code_page.evaluate("localStorage.setItem('askalong.outline', 'open')")
    code_page.reload()
    code_page.wait_for_selector("body.ready")
    outline = code_page.locator("#outline")
    expect(outline.locator(".outline-item", has_text="Lock.acquire")).to_have_count(1)
    expect(outline.locator(".outline-item.level-2", has_text="Lock.acquire")).to_be_visible()
    wrap = outline.locator(".symbol-wrap", has=code_page.locator("text=Lock.acquire"))
    wrap.locator(".symbol-more").click()
    link = wrap.locator(".symbol-link", has_text="Lock._wake_up_first")
    expect(link).to_be_visible()
    link.click()
    assert_line_shown(code_page, LOCKS, "    def _wake_up_first(self):")
    callers = wrap.locator(".symbol-link")
    expect(callers.first).to_be_visible()


def uploaded_repository(server: LiveServer) -> dict[str, str]:
    """``repo/asyncio/locks.py`` and ``mixins.py`` (the machine's own) as one zip: their
    document ids by file name."""
    entries = {f"repo/asyncio/{path.name}": path.read_bytes() for path in (LOCKS, MIXINS)}
    files = server.upload_zip("repo.zip", entries)["files"]
    return {f["source"].rsplit("/", 1)[-1]: f["document_id"] for f in files}


def test_go_to_definition_in_another_file_opens_it_at_the_definitions_line(
    code_page: Page, code_server: tuple[LiveServer, str]
) -> None:
    server, _ = code_server
    ids = uploaded_repository(server)
    open_reader(code_page, server.url, ids["locks.py"])
    code_page.evaluate("localStorage.setItem('askalong.outline', 'open')")
    code_page.reload()
    code_page.wait_for_selector("body.ready")
    outline = code_page.locator("#outline")
    wrap = outline.locator(".symbol-wrap", has=code_page.locator("text=Lock.acquire"))
    wrap.locator(".symbol-more").click()
    link = wrap.locator(".symbol-link", has_text="_get_loop")
    expect(link).to_be_visible()
    expect(link.locator(".muted")).to_contain_text("mixins.py:")
    link.click()
    assert_opened_at(code_page, ids["mixins.py"], MIXINS, "    def _get_loop(self):")


def assert_opened_at(page: Page, doc: str, path: Path, line_text: str) -> None:
    """The reader has opened ``doc`` (the file ``path``) with ``line_text`` highlighted."""
    page.wait_for_url(f"**/reader.html?doc={doc}#*")
    page.wait_for_selector("body.ready")
    page.wait_for_function("() => window.askalong.highlightedText() !== ''")
    assert_line_shown(page, path, line_text)


def test_the_code_view_light_and_dark_has_no_serious_violations(
    code_page: Page, code_server: tuple[LiveServer, str]
) -> None:
    server, doc = code_server
    open_reader(code_page, server.url, doc)
    assert blocking(code_page) == []
    code_page.emulate_media(color_scheme="dark")
    background = code_page.evaluate(
        "getComputedStyle(document.querySelector('.code-listing')).backgroundColor"
    )
    assert background == "rgb(23, 25, 32)", background
    assert blocking(code_page) == []
