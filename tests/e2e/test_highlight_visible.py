"""A quote's highlight is visible over the text of HTML, Markdown, plain text and DOCX
documents, judged by the screenshot's pixels: the highlight's colour covers the quoted
text's area (it was once drawn under the article's opaque page, z-index 0 under 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import docx
import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Browser, Page

from e2e.conftest import entered_page
from e2e.live import LiveServer
from e2e.pixels import highlight_share
from e2e.reader import open_reader, wait_for_pulse_end

PARAGRAPH = (
    "The reader draws a highlight over the exact characters a quote names, so that a "
    "person sees at once where the answer came from and can read the words around it."
)
QUOTED = "exact characters a quote names"
FILES = {
    "notes.html": f"<html><body><h1>Notes</h1><p>{PARAGRAPH}</p></body></html>",
    "notes.md": f"# Notes\n\n{PARAGRAPH}\n",
    "notes.txt": f"Notes\n\n{PARAGRAPH}\n",
}

# The client rectangles of the first occurrence of a text in the document's segments.
TEXT_RECTS = """(needle) => {
  for (const seg of document.querySelectorAll("#document .seg")) {
    const at = seg.textContent.indexOf(needle);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(seg.firstChild, at);
    range.setEnd(seg.firstChild, at + needle.length);
    return [...range.getClientRects()].map((r) => r.toJSON());
  }
  return [];
}"""


def _docx(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Notes", level=1)
    document.add_paragraph(PARAGRAPH)
    document.save(str(path))
    return path


@pytest.fixture(scope="module")
def flow_docs(
    tmp_path_factory: pytest.TempPathFactory, reading_room: LiveServer
) -> tuple[LiveServer, dict]:
    folder = tmp_path_factory.mktemp("flow")
    paths = []
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    paths.append(_docx(folder / "notes.docx"))
    return reading_room, {path.suffix: reading_room.upload(path) for path in paths}


@pytest.fixture
def reader_page(browser: Browser, flow_docs: tuple[LiveServer, dict]) -> Iterator[Page]:
    with entered_page(browser, flow_docs[0], landing=None) as page:
        yield page


@pytest.mark.parametrize("suffix", [".html", ".md", ".txt", ".docx"])
def test_a_highlight_is_visible_over_the_text(
    reader_page: Page, flow_docs: tuple[LiveServer, dict], suffix: str, artifacts: Path
) -> None:
    server, ids = flow_docs
    structure = server.structure(ids[suffix])
    block = next(b for b in structure["blocks"] if QUOTED in b["text"])  # type: ignore[index]
    start = block["text"].index(QUOTED)
    open_reader(reader_page, server.url, ids[suffix])
    shown = reader_page.evaluate(
        "([b, s, e]) => window.askalong.highlight(b, s, e)",
        [block["id"], start, start + len(QUOTED)],
    )
    assert shown == QUOTED
    wait_for_pulse_end(reader_page)
    rects = reader_page.evaluate(TEXT_RECTS, QUOTED)
    assert rects, f"{suffix}: the quoted text is not shown"
    pixels = np.asarray(Image.open(_shot(reader_page, artifacts, suffix)).convert("RGB"))
    shares = [highlight_share(pixels, r) for r in rects]
    assert min(shares) > 0.5, f"{suffix}: highlight colour over the quote: {shares}"


def _shot(page: Page, artifacts: Path, suffix: str) -> Path:
    path = artifacts / f"highlight-visible-{suffix.lstrip('.')}.png"
    page.screenshot(path=str(path))
    return path


@pytest.mark.parametrize("suffix", [".md", ".docx"])
def test_a_highlight_stays_over_its_text_when_the_type_is_zoomed(
    reader_page: Page, flow_docs: tuple[LiveServer, dict], suffix: str, artifacts: Path
) -> None:
    """Highlighted, then zoomed in twice (the type grows, the lines wrap anew): the
    highlight is drawn again over the quoted text."""
    server, ids = flow_docs
    structure = server.structure(ids[suffix])
    block = next(b for b in structure["blocks"] if QUOTED in b["text"])  # type: ignore[index]
    start = block["text"].index(QUOTED)
    open_reader(reader_page, server.url, ids[suffix])
    reader_page.evaluate(
        "([b, s, e]) => window.askalong.highlight(b, s, e)",
        [block["id"], start, start + len(QUOTED)],
    )
    before = reader_page.evaluate(TEXT_RECTS, QUOTED)
    reader_page.click("#zoom-in")
    reader_page.click("#zoom-in")
    wait_for_pulse_end(reader_page)
    rects = reader_page.evaluate(TEXT_RECTS, QUOTED)
    assert rects[0]["height"] > 1.15 * before[0]["height"], (before, rects)
    pixels = np.asarray(Image.open(_shot(reader_page, artifacts, f"zoomed{suffix}")).convert("RGB"))
    shares = [highlight_share(pixels, r) for r in rects]
    assert min(shares) > 0.5, f"{suffix}: highlight colour over the zoomed quote: {shares}"
