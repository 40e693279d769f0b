"""Zoom in the reader, in a real Chromium: a PDF's page images are drawn again at the new
width (times devicePixelRatio), its text layer and a quote's highlight stay on the ink at
2x (judged by pixels, as test_geometry.py does at the reading width), the text under the
pointer stays in view through Ctrl+wheel and Ctrl+-, fit page shows a whole page, an
HTML document's type grows and shrinks, and a page shown fetches its image at the next
stock width ahead, when idle (the first zoom in that needs it finds it cached)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from e2e.conftest import Library
from e2e.pixels import highlight_share, on_its_ink, quote_words, sample_words, screenshot
from e2e.reader import open_reader, pick_block, wait_for_pulse_end

SCROLLER = "#reader-scroll"
MIN_ON_INK = 0.85  # as in test_geometry.py

# The text-layer segment nearest the middle of the scroller: its block and start.
MIDDLE_SEGMENT = """() => {
  const view = document.querySelector("#reader-scroll").getBoundingClientRect();
  const x = view.left + view.width / 2, y = view.top + view.height / 2;
  let best = null, distance = Infinity;
  for (const seg of document.querySelectorAll(".seg")) {
    const r = seg.getBoundingClientRect();
    const d = Math.hypot((r.left + r.right) / 2 - x, (r.top + r.bottom) / 2 - y);
    if (d < distance) [best, distance] = [seg, d];
  }
  return {block: best.dataset.block, start: +best.dataset.start};
}"""
# Where that segment is now, relative to the scroller's middle (pixels).
FROM_MIDDLE = """([block, start]) => {
  const view = document.querySelector("#reader-scroll").getBoundingClientRect();
  const seg = document.querySelector(`.seg[data-block="${block}"][data-start="${start}"]`);
  const r = seg.getBoundingClientRect();
  return {dx: (r.left + r.right) / 2 - (view.left + view.width / 2),
          dy: (r.top + r.bottom) / 2 - (view.top + view.height / 2)};
}"""
PAGE_ONE = """() => {
  const page = document.querySelector('.page[data-page="1"]');
  const img = page.querySelector("img");
  return {css: page.getBoundingClientRect().width, height: page.getBoundingClientRect().height,
          pixels: img.naturalWidth, src: img.currentSrc};
}"""


def zoom_to_twice(page: Page) -> None:
    """Twice the fit-width scale, waiting until the visible pages are drawn at it."""
    page.evaluate("() => window.askalong.zoom.zoomTo(window.askalong.zoom.level() * 2)")


def test_zoom_draws_the_page_image_again_at_the_new_width(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    page.wait_for_selector('.page[data-page="1"].loaded')
    before = page.evaluate(PAGE_ONE)
    level = page.locator("#zoom-level").text_content()
    zoom_to_twice(page)
    after = page.evaluate(PAGE_ONE)
    assert abs(after["css"] - 2 * before["css"]) <= 2, (before, after)
    assert after["pixels"] >= min(after["css"], 2400) > before["pixels"], (before, after)
    assert page.locator("#zoom-level").text_content() != level
    page.click("#zoom-fit-width")
    assert abs(page.evaluate(PAGE_ONE)["css"] - before["css"]) <= 1
    expect(page.locator("#zoom-fit-width")).to_have_attribute("aria-pressed", "true")


def test_zoom_asks_for_device_pixels(browser: Browser, library: Library) -> None:
    """At devicePixelRatio 2 a page 2x zoomed is drawn at twice its CSS width (up to the
    server's widest stock image)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, device_scale_factor=2)
    try:
        page = context.new_page()
        page.goto(library.server.entry("/"))
        open_reader(page, library.server.url, library.ids["paper"])
        page.wait_for_selector('.page[data-page="1"].loaded')
        page.evaluate("() => window.askalong.zoom.zoomTo(1.25)")
        shown = page.evaluate(PAGE_ONE)
        assert shown["pixels"] >= min(2 * shown["css"], 2400), shown
        assert page.locator("#zoom-level").text_content() == "125%"
    finally:
        context.close()


def test_the_text_layer_lies_on_the_ink_at_twice_the_width(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    page.wait_for_selector('.page[data-page="1"].loaded')
    zoom_to_twice(page)
    words = sample_words(page, 1, 30, within=SCROLLER)
    pixels = screenshot(page.locator(SCROLLER))
    off = [w["word"] for w in words if not on_its_ink(pixels, w)]
    assert len(words) >= 12, f"too few words in view at 2x: {words}"
    assert len(off) <= (1 - MIN_ON_INK) * len(words), f"off their ink at 2x: {off} of {words}"


def test_a_quote_highlight_covers_its_words_at_twice_the_width(
    page: Page, library: Library
) -> None:
    """Highlighted at the reading width, then zoomed: the highlight is drawn again over the
    quoted words."""
    structure = library.server.structure(library.ids["paper"])
    block = pick_block(structure, page=1, lines=3, min_chars=200)
    start, end = block["boxes"][0][4] + 10, block["boxes"][1][5]
    open_reader(page, library.server.url, library.ids["paper"])
    page.evaluate("([b, s, e]) => window.askalong.highlight(b, s, e)", [block["id"], start, end])
    zoom_to_twice(page)
    page.evaluate("([b, s, e]) => window.askalong.highlight(b, s, e)", [block["id"], start, end])
    wait_for_pulse_end(page)
    words = quote_words(page, block["id"], start, end, within=SCROLLER)
    assert len(words) >= 4, f"too few quoted words: {words}"
    pixels = screenshot(page.locator(SCROLLER))
    page.evaluate("document.querySelectorAll('.hl').forEach(m => m.remove())")
    bare = screenshot(page.locator(SCROLLER))
    off_ink = [w["word"] for w in words if not on_its_ink(bare, w)]
    painted = [highlight_share(pixels, w) for w in words]
    assert len(off_ink) <= (1 - MIN_ON_INK) * len(words), f"off their ink: {off_ink}"
    assert min(painted) > 0.5, f"highlight colour over the quoted words at 2x: {painted}"


def _still_in_the_middle(page: Page, segment: dict[str, Any], what: str) -> None:
    moved = page.evaluate(FROM_MIDDLE, [segment["block"], segment["start"]])
    assert abs(moved["dy"]) < 60 and abs(moved["dx"]) < 200, f"{what}: moved {moved}"


def test_zoom_keeps_the_text_under_the_pointer_in_view(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    page.evaluate("window.askalong.pages.goTo(2)")
    page.locator(SCROLLER).evaluate("s => s.scrollBy(0, 300)")
    segment = page.evaluate(MIDDLE_SEGMENT)
    view = page.locator(SCROLLER).bounding_box()
    assert view is not None
    page.mouse.move(view["x"] + view["width"] / 2, view["y"] + view["height"] / 2)
    level = page.locator("#zoom-level").text_content()
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    expect(page.locator("#zoom-level")).not_to_have_text(level or "")
    _still_in_the_middle(page, segment, "Ctrl+wheel in")
    page.keyboard.press("Control+Minus")
    page.keyboard.press("Control+Minus")
    expect(page.locator("#zoom-level")).not_to_have_text(level or "")
    _still_in_the_middle(page, segment, "Ctrl+- twice")
    page.keyboard.press("Control+0")
    expect(page.locator("#zoom-level")).to_have_text(level or "")


def test_fit_page_shows_a_whole_page(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    page.click("#zoom-fit-page")
    view = page.locator(SCROLLER).bounding_box()
    shown = page.evaluate(PAGE_ONE)
    assert view is not None and shown["height"] <= view["height"], (shown, view)
    expect(page.locator("#zoom-fit-page")).to_have_attribute("aria-pressed", "true")


FONT_AND_MIDDLE = """() => {
  const view = document.querySelector("#reader-scroll").getBoundingClientRect();
  const p = document.querySelector(".prose p");
  return {size: parseFloat(getComputedStyle(p).fontSize), top: view.top, bottom: view.bottom};
}"""


def test_an_html_document_zooms_its_type_and_keeps_its_place(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["manual"])
    block = pick_block(structure, after=len(structure["blocks"]) // 2)
    open_reader(page, library.server.url, library.ids["manual"])
    expect(page.locator("#zoom-fit-page")).to_be_hidden()
    seg = page.locator(f'.seg[data-block="{block["id"]}"]').first
    seg.evaluate("s => s.scrollIntoView({block: 'center'})")
    before = page.evaluate(FONT_AND_MIDDLE)
    page.click("#zoom-in")
    page.click("#zoom-in")
    after = page.evaluate(FONT_AND_MIDDLE)
    assert after["size"] >= 1.2 * before["size"], (before, after)
    expect(page.locator("#zoom-level")).to_have_text("125%")
    where = seg.bounding_box()
    assert where is not None and before["top"] < where["y"] < before["bottom"], (where, before)


def test_a_shown_page_fetches_the_next_width_ahead(page: Page, library: Library) -> None:
    """With no zoom at all, page 1's image is asked for at a second, wider stock width once
    the page is shown; zooming in until the images need a new width then asks for that one."""
    widths: list[int] = []
    pattern = re.compile(rf"/api/documents/{library.ids['paper']}/pages/1\.png\?width=(\d+)")

    def seen(request: Any) -> None:
        found = pattern.search(request.url)
        if found:
            widths.append(int(found[1]))

    page.on("request", seen)
    open_reader(page, library.server.url, library.ids["paper"])
    page.wait_for_selector('.page[data-page="1"].loaded')
    shown = page.evaluate("window.askalong.zoom.view.pages[0].imageWidth")
    page.wait_for_function(
        "(w) => performance.getEntriesByType('resource').some((e) =>"
        " e.name.includes('/pages/1.png?width=') && !e.name.endsWith(`width=${w}`))",
        arg=shown,
    )
    ahead = sorted(set(widths) - {shown})
    assert ahead and ahead[0] > shown, (shown, widths)
    page.evaluate(
        "async () => { const z = window.askalong.zoom, w = z.view.imageWidth();"
        " for (let i = 0; i < 12 && z.view.imageWidth() === w; i += 1) await z.step(1); }"
    )
    assert page.evaluate("window.askalong.zoom.view.pages[0].imageWidth") == ahead[0]
