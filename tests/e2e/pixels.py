"""Judging the reader by its pixels: where the ink of a rendered page is, whether a text-layer
box lies on it, and whether a highlight's colour covers a stretch of text.

Boxes are ``{left, top, right, bottom}`` in CSS pixels relative to the screenshot (taken of
one element at device scale 1, so CSS pixels are image pixels)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image
from playwright.sync_api import Locator, Page

Pixels = npt.NDArray[np.uint8]
INK = 200  # a pixel darker than this (0-255 grey) is ink (small type is thin and grey)
WHITE = 246  # every channel above this: paper, nothing drawn over it
MIN_INSIDE = 0.8  # share of the ink of the line a box is on that lies inside the box
MIN_DENSITY = 0.04  # ink pixels per pixel of the box (a word, not white space)
BAND_FLOOR = 0.15  # of the inkiest row: a row with less ink parts two printed lines
MIN_COLUMNS = 0.45  # share of the box's length with ink (its word, not a stray mark)

# Words of the text layer on one page: Latin words of 4+ letters and runs of 2-4 Han
# characters, spread evenly over the page's segments; each with its box on the page, or
# (`within`: a selector, e.g. the scroller of a zoomed page) on that element, keeping the
# words wholly inside its visible area.
SAMPLE_WORDS = """([number, count, within]) => {
  const page = document.querySelector(`.page[data-page="${number}"]`);
  const frame = within ? document.querySelector(within) : page;
  const origin = frame.getBoundingClientRect();
  const found = [];
  for (const seg of page.querySelectorAll(".seg")) {
    const text = seg.firstChild.textContent;
    for (const m of text.matchAll(/[A-Za-z]{4,}|[\\u4e00-\\u9fff]{2,4}/g))
      found.push([seg, m.index, m.index + m[0].length, m[0]]);
  }
  const boxes = found.map(([seg, a, b, word]) => {
    const range = document.createRange();
    range.setStart(seg.firstChild, a);
    range.setEnd(seg.firstChild, b);
    const r = range.getBoundingClientRect();
    return {word, left: r.left - origin.left, top: r.top - origin.top,
            right: r.right - origin.left, bottom: r.bottom - origin.top};
  });
  const shown = within ? boxes.filter((w) => w.left >= 0 && w.top >= 0 &&
    w.right <= frame.clientWidth && w.bottom <= frame.clientHeight) : boxes;
  const step = Math.max(1, Math.floor(shown.length / count));
  const out = [];
  for (let i = 0; i < shown.length && out.length < count; i += step) out.push(shown[i]);
  return out;
}"""

# The words (as above) of a quote [start, end) of one block, each with its box on its page
# or (`within`) on that element.
QUOTE_WORDS = """([block, start, end, within]) => {
  const out = [];
  const frame = within && document.querySelector(within);
  for (const seg of document.querySelectorAll(`.seg[data-block="${block}"]`)) {
    const page = (frame || seg.closest(".page")).getBoundingClientRect();
    const base = +seg.dataset.start, text = seg.firstChild.textContent;
    for (const m of text.matchAll(/[A-Za-z]{4,}|[\\u4e00-\\u9fff]{2,4}/g)) {
      const a = base + m.index, b = a + m[0].length;
      if (a < start || b > end) continue;
      const range = document.createRange();
      range.setStart(seg.firstChild, m.index);
      range.setEnd(seg.firstChild, m.index + m[0].length);
      const r = range.getBoundingClientRect();
      out.push({word: m[0], left: r.left - page.left, top: r.top - page.top,
                right: r.right - page.left, bottom: r.bottom - page.top});
    }
  }
  return out;
}"""


def screenshot(locator: Locator) -> Pixels:
    """The element's pixels, RGB."""
    image = Image.open(io.BytesIO(locator.screenshot(animations="disabled")))
    return np.asarray(image.convert("RGB"))


def show_page(page: Page, number: int) -> Locator:
    """Page ``number`` of the PDF view scrolled into view, its image loaded."""
    section = page.locator(f'.page[data-page="{number}"]')
    section.scroll_into_view_if_needed()
    page.wait_for_selector(f'.page[data-page="{number}"].loaded')
    page.wait_for_function(
        "n => document.querySelector(`.page[data-page='${n}'] img`).complete", arg=number
    )
    return section


def sample_words(
    page: Page, number: int, count: int, within: str | None = None
) -> list[dict[str, Any]]:
    words: list[dict[str, Any]] = page.evaluate(SAMPLE_WORDS, [number, count, within])
    return words


def quote_words(
    page: Page, block: str, start: int, end: int, within: str | None = None
) -> list[dict[str, Any]]:
    words: list[dict[str, Any]] = page.evaluate(QUOTE_WORDS, [block, start, end, within])
    return words


def _region(pixels: Pixels, box: dict[str, float]) -> Pixels:
    height, width = pixels.shape[:2]
    left, right = max(round(box["left"]), 0), min(round(box["right"]), width)
    top, bottom = max(round(box["top"]), 0), min(round(box["bottom"]), height)
    return pixels[top:bottom, left:right]


def on_its_ink(pixels: Pixels, box: dict[str, float]) -> bool:
    """Whether ``box`` lies on a word's ink: near the box, across its line, the ink comes in
    bands (printed lines, white rows between them); the band the box overlaps most must
    lie mostly inside the box, fill a fair share of it, and run along most of its length."""
    ink = pixels.mean(axis=2) < INK
    left, top, right, bottom = (box[k] for k in ("left", "top", "right", "bottom"))
    if right - left < bottom - top:  # a turned line runs down the page: look at it across
        ink = ink.T
        left, top, right, bottom = top, left, bottom, right
    thick = bottom - top
    if min(thick, right - left) < 2:
        return False
    x0, x1 = max(round(left), 0), min(round(right), ink.shape[1])
    y0, y1 = max(round(top - thick), 0), min(round(bottom + thick), ink.shape[0])
    near = ink[y0:y1, x0:x1]
    profile = near.sum(axis=1)
    # Rows with a little ink (a descender meeting the next line's ascender) part bands too.
    inked = profile > BAND_FLOOR * profile.max() if profile.size else profile
    band = _best_band(inked, round(top) - y0, round(bottom) - y0)
    if band is None:
        return False
    first, last = band
    inside = near[max(first, round(top) - y0) : min(last, round(bottom) - y0)]
    own = near[first:last]
    columns = own.any(axis=0).mean() if own.size else 0.0
    return (
        inside.sum() >= MIN_INSIDE * own.sum()
        and own.sum() >= MIN_DENSITY * thick * (right - left)
        and columns >= MIN_COLUMNS
    )


def _best_band(inked: npt.NDArray[np.bool_], top: int, bottom: int) -> tuple[int, int] | None:
    """The run of ``inked`` rows overlapping rows ``top:bottom`` most."""
    best, best_overlap = None, 0
    row, rows = 0, len(inked)
    while row < rows:
        if not inked[row]:
            row += 1
            continue
        first = row
        while row < rows and inked[row]:
            row += 1
        overlap = min(row, bottom) - max(first, top)
        if overlap > best_overlap:
            best, best_overlap = (first, row), overlap
    return best


def white_share(pixels: Pixels, box: dict[str, float]) -> float:
    """The share of ``box`` (shrunk by 2 pixels: a highlight's corners are rounded) that is
    bare paper."""
    shrunk = {
        "left": box["left"] + 2,
        "right": box["right"] - 2,
        "top": box["top"] + 2,
        "bottom": box["bottom"] - 2,
    }
    region = _region(pixels, shrunk)
    if not region.size:
        return 1.0
    return float((region.min(axis=2) > WHITE).mean())


def highlight_share(pixels: Pixels, box: dict[str, float]) -> float:
    """The share of ``box`` in the highlight's colour (yellow: red and green well above
    blue), ink excluded."""
    region = _region(pixels, box).astype(int)
    if not region.size:
        return 0.0
    red, green, blue = region[..., 0], region[..., 1], region[..., 2]
    paper = region.mean(axis=2) >= INK
    yellow = (red > 200) & (green > 160) & (blue < red - 50)  # paper under the highlight
    return float((yellow & paper).sum() / max(paper.sum(), 1))
