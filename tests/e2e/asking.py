"""A live server of its own for the asking tests (test_composer, test_compare_target,
test_streaming): the SPECTER paper (issue 13's reproduction) and a short Markdown note,
added through the API, so the shared library's counts stay as other tests expect."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from e2e.live import LiveServer, live_server
from e2e.reader import AskRequests, Target, drag_select, open_reader

SPECTER = "pdf/en_2col/2020.acl-main.207.pdf"
NOTE = """# Tides

Tides are caused by the gravity of the Moon pulling on the oceans. The Sun adds a
smaller pull, so spring tides come when both line up.
"""
FUTURE_WORK = "We used citations to build triplets for our loss function"


@dataclass(frozen=True)
class Asking:
    server: LiveServer
    paper: str  # document ids
    note: str


def asking_library(evaldata: Path, root: Path) -> Iterator[Asking]:
    """The server with its two documents (a generator for a module fixture)."""
    note = root / "tides.md"
    note.write_text(NOTE, encoding="utf-8")
    with live_server(root / "home") as server:
        yield Asking(server, server.upload(evaldata / SPECTER), server.upload(note))


def text_target(structure: dict[str, Any], text: str) -> Target:
    """The first block holding ``text``, as a drag target over exactly that text."""
    for block in structure["blocks"]:
        at = block["text"].find(text)
        if at >= 0:
            return Target(block["id"], at, at + len(text), text)
    raise AssertionError(f"no block holds {text!r}")


def select_text(page: Page, structure: dict[str, Any], text: str) -> Target:
    """Drag over ``text`` wherever it is: its page is brought into view (and drawn) first."""
    target = text_target(structure, text)
    page.evaluate(
        "([b, s, e]) => window.askalong.highlight(b, s, e)",
        [target.block_id, target.start, target.end],
    )
    page.wait_for_selector(f'.seg[data-block="{target.block_id}"]')
    drag_select(page, target)
    return target


def ask_box_at(page: Page, asking: Asking, text: str) -> AskRequests:
    """The paper open in the reader, ``text`` selected and the ask box opened on it; the
    ask requests sent from then on are watched."""
    asks = AskRequests(page)
    open_reader(page, asking.server.url, asking.paper)
    select_text(page, asking.server.structure(asking.paper), text)
    page.locator(".fab-ask").click()
    return asks
