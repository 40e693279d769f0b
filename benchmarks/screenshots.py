"""The reader's screenshots for the README: the SPECTER paper (issue 13's reproduction)
ingested into a real server, a sentence on page 1 selected and explained, the first quote
shown in the page (its citation in the answer clicked); saved at 1400×900 and 800×600,
light and dark, English and Chinese UI
(8 PNGs, `docs/images/reader-<lang>-<scheme>-<width>x<height>.png`), and the English light
1400×900 one again as the README's hero, `docs/images/reader-paper.png`. The chat page
(`/chat.html`) with a two-part question answered over the paper and the SELECT page of the
PostgreSQL manual, its sources listed: 1400×900 light and 800×600 dark, in English and, asked
in Chinese, in the Chinese UI (`docs/images/chat-<lang>-<scheme>-<width>x<height>.png`). A
source file (the standard library's `asyncio/locks.py`): two lines of `Lock.acquire`
explained, the first quote highlighted, the outline's symbols with the calls of
`Lock.acquire` open, light and dark (`docs/images/reader-code-<scheme>.png`, 1400×900,
README "Reading code").

Each shot is a fresh browser context with that language (navigator.languages) and colour
scheme (prefers-color-scheme), so the reader chooses them as it would for a person. PNGs
are reduced to a 256-colour palette (Pillow), which keeps type crisp and each file small.

    python benchmarks/screenshots.py [--out docs/images] [--pages reader,chat,code]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from e2e.asking import SPECTER, select_text  # noqa: E402
from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server  # noqa: E402
from e2e.reader import (  # noqa: E402
    Target,
    drag_select,
    open_reader,
    wait_for_answer,
)

SIZES = ((1400, 900), (800, 600))
SCHEMES = ("light", "dark")
LOCALES = {"en": "en-US", "zh": "zh-CN"}
HERO = "reader-paper.png"
# How SPECTER picks its negative examples (section 2.4): a passage a reader would ask about.
SELECTION = "We consider two sets of negative examples"
SELECT_PAGE = "manuals/postgresql-15-html/sql-select.html"
CHAT_SHOTS = (("light", (1400, 900)), ("dark", (800, 600)))
# Two parts, two documents: each part searched and cited on its own (in Chinese: the same
# parts asked of the English documents, split at 还有).
CHAT_QUESTIONS = {
    "en": "What does SELECT DISTINCT do? And also what are hard negatives in SPECTER?",
    "zh": "SELECT DISTINCT 有什么作用？还有，SPECTER 里的 hard negatives 是什么？",
}
LOCKS = Path(asyncio.__file__).parent / "locks.py"
CODE_SELECTION = ("fut = self._get_loop().create_future()", "self._waiters.append(fut)")


def shot_name(language: str, scheme: str, size: tuple[int, int]) -> str:
    return f"reader-{language}-{scheme}-{size[0]}x{size[1]}.png"


def explained(page: Page, server: LiveServer, document_id: str) -> None:
    """The reader open on the paper, SELECTION explained, quote 1 shown."""
    structure: dict[str, Any] = server.structure(document_id)
    open_reader(page, server.url, document_id)
    page.wait_for_selector('.page[data-page="1"].loaded')
    select_text(page, structure, SELECTION)
    page.locator(".fab-ask").click()
    page.locator('.askbox .chip[data-intent="explain"]').click()
    turn = wait_for_answer(page)
    show_first_quote(turn)
    page.evaluate("getSelection().removeAllRanges()")
    page.mouse.move(1, 1)
    page.wait_for_timeout(1400)  # the highlight's pulse ends; images settle
    expect(page.locator(".fab")).to_be_hidden()


def show_first_quote(turn: Locator) -> None:
    """The answer's own "1" clicked, as a reader clicks it: the quote card's number lies
    below the panel's fold, and clicking it there scrolls the answer out of the picture."""
    first = turn.locator(".answer-text .cite").first
    if first.count():
        first.click()


def chatted(page: Page, server: LiveServer, question: str) -> None:
    """The chat page, ``question`` asked and answered, the answer scrolled into view."""
    page.goto(f"{server.url}/chat.html")
    page.wait_for_selector("body.ready")
    page.fill("#chat-input", question)
    page.keyboard.press("Enter")
    turn = page.locator(".chat-turn").last
    expect(turn).to_have_attribute("data-state", "done", timeout=120_000)
    page.locator("#chat-input").blur()
    turn.scroll_into_view_if_needed()
    page.evaluate("document.querySelector('.chat-turn').scrollIntoView({block: 'start'})")


@contextmanager
def entered(
    browser: Browser, server: LiveServer, size: tuple[int, int], locale: str, scheme: str
) -> Iterator[Page]:
    """A fresh browser context's page, signed in to ``server`` (its tokened address), with
    that viewport, language (navigator.languages) and colour scheme; closed after."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        locale=locale,
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    try:
        page = context.new_page()
        page.goto(server.entry("/"))
        yield page
    finally:
        context.close()


def take_chat(browser: Browser, server: LiveServer, out: Path) -> list[Path]:
    saved = []
    for (language, locale), (scheme, size) in itertools.product(LOCALES.items(), CHAT_SHOTS):
        with entered(browser, server, size, locale, scheme) as page:
            chatted(page, server, CHAT_QUESTIONS[language])
            path = out / f"chat-{language}-{scheme}-{size[0]}x{size[1]}.png"
            path.write_bytes(small_png(page.screenshot()))
            saved.append(path)
    return saved


def code_explained(page: Page, server: LiveServer, document_id: str) -> None:
    """The reader on locks.py: two lines of Lock.acquire explained, quote 1 shown, the
    outline's Lock.acquire opened on its calls and callers."""
    structure: dict[str, Any] = server.structure(document_id)
    block = next(b for b in structure["blocks"] if b["section_path"] == ["Lock", "acquire"])
    start = block["text"].index(CODE_SELECTION[0])
    end = block["text"].index(CODE_SELECTION[1]) + len(CODE_SELECTION[1])
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('askalong.outline', 'open')")
    open_reader(page, server.url, document_id)
    drag_select(page, Target(block["id"], start, end, block["text"][start:end]))
    page.locator(".fab-ask").click()
    page.locator('.askbox .chip[data-intent="explain"]').click()
    turn = wait_for_answer(page)
    wrap = page.locator(".symbol-wrap", has=page.locator("text=Lock.acquire"))
    wrap.locator(".symbol-more").click()
    expect(wrap.locator(".symbol-link").first).to_be_visible()
    wrap.scroll_into_view_if_needed()
    show_first_quote(turn)
    page.evaluate("getSelection().removeAllRanges()")
    page.mouse.move(1, 1)
    page.wait_for_timeout(1400)  # the highlight's pulse ends
    expect(page.locator(".fab")).to_be_hidden()


def take_code(browser: Browser, server: LiveServer, out: Path) -> list[Path]:
    document_id = server.upload(LOCKS)
    saved = []
    for scheme in SCHEMES:
        with entered(browser, server, SIZES[0], LOCALES["en"], scheme) as page:
            code_explained(page, server, document_id)
            path = out / f"reader-code-{scheme}.png"
            path.write_bytes(small_png(page.screenshot()))
            saved.append(path)
    return saved


def small_png(data: bytes) -> bytes:
    """A screenshot as a palette PNG (256 colours), optimised."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


def take(browser: Browser, server: LiveServer, document_id: str, out: Path) -> list[Path]:
    saved = []
    shots = itertools.product(LOCALES.items(), SCHEMES, SIZES)
    for (language, locale), scheme, size in shots:
        with entered(browser, server, size, locale, scheme) as page:
            explained(page, server, document_id)
            path = out / shot_name(language, scheme, size)
            path.write_bytes(small_png(page.screenshot()))
            saved.append(path)
    hero = out / HERO
    hero.write_bytes((out / shot_name("en", "light", SIZES[0])).read_bytes())
    return [*saved, hero]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument(
        "--pages", default="reader,chat,code", help="comma-separated: reader, chat, code"
    )
    args = parser.parse_args()
    pages = set(args.pages.split(","))
    args.out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="askalong-shots-") as tmp,
        live_server(Path(tmp) / "home", startup=300) as server,  # a loaded machine starts slowly
        sync_playwright() as playwright,
    ):
        document_id = server.upload(EVALDATA / SPECTER)
        server.upload(EVALDATA / SELECT_PAGE)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            paths = take(browser, server, document_id, args.out) if "reader" in pages else []
            paths += take_chat(browser, server, args.out) if "chat" in pages else []
            paths += take_code(browser, server, args.out) if "code" in pages else []
        finally:
            browser.close()
    report(paths)


def report(paths: list[Path]) -> None:
    """Each picture saved, with its size."""
    for path in paths:  # --out may be outside the checkout (a look before docs/images)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}  {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
