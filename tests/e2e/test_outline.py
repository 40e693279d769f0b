"""The outline sidebar and the page indicator, in a real Chromium: the sidebar is there
beside the text, marks the section being read while scrolling, collapses and stays
collapsed across a reload; the indicator says "3 / 8" while scrolling and jumps to a page
typed into it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.asking import Asking, text_target
from e2e.conftest import Library
from e2e.reader import open_reader

SCROLLER = "#reader-scroll"
# Where page n's top is, relative to the scroller's top (pixels).
PAGE_TOP = """(n) => document.querySelector(`.page[data-page="${n}"]`).getBoundingClientRect().top
  - document.querySelector("#reader-scroll").getBoundingClientRect().top"""


def test_the_outline_sidebar_marks_the_section_being_read(page: Page, library: Library) -> None:
    structure = library.server.structure(library.ids["paper"])
    outline = structure["outline"]
    open_reader(page, library.server.url, library.ids["paper"])
    sidebar = page.locator("#outline-sidebar")
    expect(sidebar).to_be_visible()
    items = sidebar.locator(".outline-item")
    expect(items).to_have_count(len(outline))
    later = max(i for i, entry in enumerate(outline) if entry["page"] == 4)
    items.nth(later).click()
    expect(items.nth(later)).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator(".outline-item.current")).to_have_count(1)
    page.evaluate("window.askalong.pages.goTo(1)")
    expect(items.nth(later)).not_to_have_class(re.compile(r"\bcurrent\b"))
    current = page.locator(".outline-item.current")
    expect(current).to_have_attribute("aria-current", "location")
    assert (
        items.evaluate_all("(all) => all.findIndex(i => i.classList.contains('current'))") < later
    )


def test_a_quote_shown_marks_its_own_section(asking_page: Page, asking: Asking) -> None:
    """SPECTER's page 3: a quote atop the right column, in 2.4, whose heading sits at the foot
    of the left column. Centred on the quote, the view's middle lies below no heading of 2.4,
    and the outline marked "Document Representation" (issue 32's screenshots)."""
    page = asking_page
    structure = asking.server.structure(asking.paper)
    open_reader(page, asking.server.url, asking.paper)
    page.wait_for_selector('.page[data-page="1"].loaded')
    quote = text_target(structure, "To provide a more nuanced training signal")
    page.evaluate(
        "([b, s, e]) => window.askalong.highlight(b, s, e)",
        [quote.block_id, quote.start, quote.end],
    )
    current = page.locator(".outline-item.current")
    expect(current).to_contain_text("2.4 Selecting Negative Distractors")
    # Scrolled on by the reader, the view's middle decides again.
    page.evaluate("window.askalong.pages.goTo(1)")
    expect(current).not_to_contain_text("2.4")


def test_the_outline_sidebar_stays_collapsed_across_a_reload(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    toggle = page.locator("#toggle-outline")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    width = page.locator(SCROLLER).evaluate("s => s.clientWidth")
    toggle.click()
    expect(page.locator("#outline-sidebar")).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    assert page.locator(SCROLLER).evaluate("s => s.clientWidth") > width  # the text widens
    open_reader(page, library.server.url, library.ids["paper"])
    expect(page.locator("#outline-sidebar")).to_be_hidden()
    page.locator("#toggle-outline").click()
    expect(page.locator("#outline-sidebar")).to_be_visible()


def test_the_page_indicator_follows_scrolling_and_jumps(page: Page, library: Library) -> None:
    pages = len(library.server.structure(library.ids["paper"])["pages"])  # type: ignore[arg-type]
    open_reader(page, library.server.url, library.ids["paper"])
    number = page.locator("#page-input")
    expect(page.locator("#page-count")).to_have_text(f"/ {pages}")
    expect(number).to_have_value("1")
    page.locator(SCROLLER).evaluate(
        "s => s.scrollBy(0, document.querySelector('.page[data-page=\"3\"]')"
        ".getBoundingClientRect().top - s.getBoundingClientRect().top)"
    )
    expect(number).to_have_value("3")
    number.fill("5")
    number.press("Enter")
    assert abs(page.evaluate(PAGE_TOP, 5)) < 20
    expect(number).to_have_value("5")
    page.wait_for_selector('.page[data-page="5"] .seg')  # the page jumped to is built
    number.fill(str(pages + 10))
    number.press("Enter")
    expect(number).to_have_attribute("aria-invalid", "true")
    assert abs(page.evaluate(PAGE_TOP, 5)) < 20  # stayed where it was
