"""Exact find in the document, in a real Chromium: every occurrence counted ("2 / 7") as an
independent Python count of the folded block texts says (NFKC, lower case, white space
runs as one space), Enter / Shift+Enter stepping through them, Chinese included, and each
hit painted in the text (PDF text layer and HTML) — judged by pixels. The search by
meaning stays beside it, labelled apart."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from playwright.sync_api import Page, expect

from e2e.conftest import Library
from e2e.pixels import highlight_share, screenshot, white_share
from e2e.reader import open_reader

SCROLLER = "#reader-scroll"
HAN_PAIR = re.compile(r"(?=([\u4e00-\u9fff]{2}))")
CURRENT, EVERY = "askalong-find-current", "askalong-find"
# The client rectangles (relative to the scroller) of the ranges of a CSS highlight that
# lie wholly in the scroller's visible area (leaving out the current hit's, painted apart).
HIGHLIGHT_RECTS = """([name, current]) => {
  const frame = document.querySelector("#reader-scroll");
  const o = frame.getBoundingClientRect();
  const out = [];
  const apart = [...(CSS.highlights.get(current) ?? [])];
  const same = (a, b) => a.startContainer === b.startContainer && a.startOffset === b.startOffset;
  for (const range of CSS.highlights.get(name) ?? []) {
    if (name !== current && apart.some((c) => same(c, range))) continue;
    for (const r of range.getClientRects()) {
      const box = {left: r.left - o.left, top: r.top - o.top, right: r.right - o.left,
                   bottom: r.bottom - o.top};
      if (box.left >= 0 && box.top >= 0 && box.right <= frame.clientWidth
          && box.bottom <= frame.clientHeight && r.width > 2) out.push(box);
    }
  }
  return out;
}"""


def fold(text: str) -> str:
    folded = "".join(unicodedata.normalize("NFKC", ch).lower() for ch in text)
    return re.sub(r"\s+", " ", folded)


def expected_hits(structure: dict[str, Any], query: str) -> int:
    needle = fold(query.strip()).strip()
    total = 0
    for block in structure["blocks"]:
        text, at = fold(block["text"]), 0
        while (at := text.find(needle, at)) >= 0:
            total, at = total + 1, at + len(needle)
    return total


def find(page: Page, query: str) -> None:
    """Type ``query``; the search runs once typing pauses (Enter would step to the next)."""
    page.locator("#find").fill(query)
    expect(page.locator("#find-count")).to_have_attribute("data-query", query)


def painted(page: Page) -> list[float]:
    """The highlight colour's share over each hit in view (the current one left out)."""
    rects = page.evaluate(HIGHLIGHT_RECTS, [EVERY, CURRENT])
    assert rects, "no hit but the current one is in view"
    pixels = screenshot(page.locator(SCROLLER))
    return [highlight_share(pixels, r) for r in rects]


# Every PDF page in view has its image drawn (a hit scrolled to may land on one still loading).
PAGES_IN_VIEW_LOADED = """() => {
  const view = document.querySelector("#reader-scroll").getBoundingClientRect();
  return [...document.querySelectorAll(".page")]
    .filter((p) => {
      const r = p.getBoundingClientRect();
      return r.bottom > view.top && r.top < view.bottom;
    })
    .every((p) => p.classList.contains("loaded") && p.querySelector("img")?.complete);
}"""


def bare_over_current(page: Page) -> list[float]:
    """The share of bare paper over the current hit (painted in a deeper colour)."""
    page.wait_for_function(PAGES_IN_VIEW_LOADED)  # the hit's page image, not a fixed sleep
    rects = page.evaluate(HIGHLIGHT_RECTS, [CURRENT, CURRENT])
    assert rects, "the current hit is not in view"
    pixels = screenshot(page.locator(SCROLLER))
    return [white_share(pixels, r) for r in rects]


def test_find_counts_and_steps_through_chinese_hits(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["chinese"])
    pairs = Counter(m for b in structure["blocks"] for m in HAN_PAIR.findall(b["text"]))
    word = next(w for w, n in pairs.most_common() if 3 <= n <= 40)
    total = expected_hits(structure, word)
    open_reader(page, library.server.url, library.ids["chinese"])
    find(page, word)
    count = page.locator("#find-count")
    expect(count).to_have_text(f"1 / {total}")
    page.locator("#find").press("Enter")
    expect(count).to_have_text(f"2 / {total}")
    page.locator("#find").press("Shift+Enter")
    page.locator("#find").press("Shift+Enter")
    expect(count).to_have_text(f"{total} / {total}")  # wraps round to the last
    assert max(bare_over_current(page)) < 0.02


def test_find_folds_case_and_width_and_paints_every_hit(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["paper"])
    total = expected_hits(structure, "semantic")
    assert total > 3
    open_reader(page, library.server.url, library.ids["paper"])
    find(page, "semantic")
    expect(page.locator("#find-count")).to_have_text(f"1 / {total}")
    for query in ("SEMANTIC", "ｓｅｍａｎｔｉｃ"):  # the last in full-width letters
        find(page, query)  # from the page now read: any hit of the same count
        expect(page.locator("#find-count")).to_have_text(re.compile(rf"^\d+ / {total}$"))
    shares = painted(page)
    assert len(shares) >= 2 and min(shares) > 0.5, shares
    assert max(bare_over_current(page)) < 0.02
    page.locator("#find").press("Escape")
    expect(page.locator("#find-count")).to_have_text("")
    assert page.evaluate("CSS.highlights.get('askalong-find').size") == 0
    find(page, "no such words here at all")
    expect(page.locator("#find-count")).to_have_text("No match")


def test_find_paints_hits_in_an_html_document(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["manual"])
    total = expected_hits(structure, "from_item")
    open_reader(page, library.server.url, library.ids["manual"])
    find(page, "FROM_ITEM")
    expect(page.locator("#find-count")).to_have_text(f"1 / {total}")
    shares = painted(page)
    assert min(shares) > 0.5, shares
    assert max(bare_over_current(page)) < 0.02


def test_the_two_searches_are_labelled_apart(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    exact = page.locator("#find").get_attribute("aria-label") or ""
    meaning = page.locator("#search").get_attribute("aria-label") or ""
    assert "exact" in exact.lower() and "meaning" in meaning.lower(), (exact, meaning)
    page.keyboard.press("Control+f")
    expect(page.locator("#find")).to_be_focused()


def test_a_folded_hit_maps_back_to_the_blocks_code_points(page: Page, library: Library) -> None:
    """A ligature, a full-width letter, an astral character and runs of white space: each
    hit is the block span [start, end) in code points, as quotes and the server count."""
    text = "𝒳 ﬁ  Bar ﬁ\tｂ"
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    hits = page.evaluate(
        "async (blocks) => (await import('/reader/findmatch.js')).findAll(blocks, ' FI B ')",
        [{"id": "a", "text": text}],
    )
    assert [(h["start"], h["end"]) for h in hits] == [(2, 6), (9, 12)]
    assert [text[h["start"] : h["end"]] for h in hits] == ["ﬁ  B", "ﬁ\tｂ"]
