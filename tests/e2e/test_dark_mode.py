"""Dark mode follows `prefers-color-scheme` (app.css): the reader's background turns dark
(by its pixels), a quote's highlight still shows over the page image, whose paper stays
white, and axe finds no contrast (or other serious) problem in the dark either."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import Page, expect

from e2e.a11y import blocking
from e2e.conftest import Library
from e2e.pixels import highlight_share, screenshot, show_page
from e2e.reader import (
    drag_select,
    open_reader,
    pick_block,
    sentence_in,
    wait_for_answer,
    wait_for_pulse_end,
)

DARK = 60  # mean grey (0-255) below which the background counts as dark
LIGHT = 200


def _background(page: Page) -> float:
    """Mean grey of the reading column's margin, left of page 1 (no page drawn there)."""
    pixels = screenshot(page.locator("#reader-scroll"))
    box = page.evaluate(
        "() => { const s = document.querySelector('#reader-scroll').getBoundingClientRect();"
        " const p = document.querySelector('.page').getBoundingClientRect();"
        " return {width: p.left - s.left, top: p.top - s.top}; }"
    )
    margin = pixels[max(int(box["top"]), 0) + 10 :, 2 : max(int(box["width"]) - 4, 3)]
    return float(margin.mean())


def test_the_background_is_dark_and_the_highlight_shows_on_the_page(
    page: Page, library: Library
) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    show_page(page, 1)
    light = _background(page)
    page.emulate_media(color_scheme="dark")
    dark = _background(page)
    assert light > LIGHT and dark < DARK, (light, dark)
    structure = library.server.structure(library.ids["paper"])
    block = pick_block(structure, page=1, lines=2, min_chars=60)
    page.evaluate("([b]) => window.askalong.highlight(b, 0, 40)", [block["id"]])
    wait_for_pulse_end(page)
    section = page.locator('.page[data-page="1"]')
    origin = section.bounding_box()
    assert origin is not None
    pixels = screenshot(section)
    marks = page.evaluate("window.askalong.highlightMarks()")
    boxes = [
        {
            "left": m["left"] - origin["x"],
            "right": m["right"] - origin["x"],
            "top": m["top"] - origin["y"],
            "bottom": m["bottom"] - origin["y"],
        }
        for m in marks
    ]
    assert boxes and min(highlight_share(pixels, b) for b in boxes) > 0.5
    paper = np.asarray(pixels[5:40, 5:40]).mean()
    assert paper > LIGHT, f"the page image is no longer white paper: {paper}"


def test_the_dark_reader_has_no_serious_violations(page: Page, library: Library) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto(library.server.url + "/")
    expect(page.locator(".doc-card")).to_have_count(len(library.ids))
    assert blocking(page) == []
    structure = library.server.structure(library.ids["paper"])
    open_reader(page, library.server.url, library.ids["paper"])
    expect(page.locator('.page[data-page="1"]')).to_have_class("page loaded")
    assert blocking(page) == []
    drag_select(page, sentence_in(pick_block(structure, page=1, lines=2, min_chars=60)))
    page.locator(".fab-ask").click()
    page.locator(".askbox .chip", has_text="Explain").click()
    wait_for_answer(page)
    assert blocking(page) == []
    open_reader(page, library.server.url, library.ids["manual"])
    assert blocking(page) == []
