"""Driving the reader like a person: open, select by dragging, click, and read back what the
page shows through ``window.askalong`` (the reader's own handle for tests)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Locator, Page, Request, expect

SENTENCE_END = re.compile(r"(?<=[.!?])\s|[。！？；]")


@dataclass(frozen=True)
class Target:
    """A sentence (or its first 120 characters) of one block."""

    block_id: str
    start: int
    end: int
    text: str


def sentence_in(block: dict[str, Any], skip: int = 0) -> Target:
    text: str = block["text"]
    start = skip
    match = SENTENCE_END.search(text, start + 40)
    end = min(match.end() if match else len(text), start + 120, len(text))
    end = len(text[:end].rstrip())
    return Target(block["id"], start, end, text[start:end])


def pick_block(
    structure: dict[str, Any],
    *,
    min_chars: int = 80,
    page: int | None = None,
    lines: int = 1,
    after: int = 0,
    needs: str = "",
) -> dict[str, Any]:
    """The first paragraph block long enough (on ``page``, with ``lines`` line boxes,
    holding ``needs``)."""
    for block in structure["blocks"][after:]:
        if block["kind"] != "paragraph" or len(block["text"]) < min_chars:
            continue
        if needs not in block["text"]:
            continue
        if not SENTENCE_END.search(block["text"], 40):  # a sentence, not a list of names
            continue
        if page is not None and block["page"] != page:
            continue
        if block["boxes"] and len(block["boxes"]) < lines:
            continue
        return block
    raise AssertionError(f"no paragraph of {min_chars}+ characters on page {page}")


# A highlight is drawn and its pulse (app.css .hl.pulse) has run out: the animation itself
# is waited for, as on a loaded machine it starts late and outlasts its nominal 1.2 s.
PULSE_OVER = """() => document.querySelector(".hl") !== null
  && document.getAnimations().every((a) => a.animationName !== "pulse")"""


def wait_for_pulse_end(page: Page) -> None:
    page.wait_for_function(PULSE_OVER)


def open_reader(page: Page, url: str, document_id: str) -> None:
    page.goto(f"{url}/reader.html?doc={document_id}")
    page.wait_for_selector("body.ready")
    page.wait_for_function("() => window.askalong !== undefined")


CHAR_RECT = """([block, offset, scroll]) => {
  const segs = [...document.querySelectorAll(`.seg[data-block="${block}"]`)];
  const seg = segs.find(s => +s.dataset.start <= offset && offset < +s.dataset.end);
  if (scroll) seg.scrollIntoView({block: "center"});
  const range = document.createRange();
  const text = seg.firstChild.textContent;
  const at = offset - +seg.dataset.start;  // these test texts have no astral characters
  range.setStart(seg.firstChild, at);
  range.setEnd(seg.firstChild, at + 1);
  const r = [...range.getClientRects()].find(r => r.width > 0) || range.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, text};
}"""


def settled_rect(page: Page, block_id: str, offset: int) -> dict[str, float]:
    """The character's box once two reads an animation frame apart agree (a smooth scroll,
    the block cursor's say, may still be moving the page when the drag is measured)."""
    before: dict[str, float] = page.evaluate(CHAR_RECT, [block_id, offset, False])
    for _ in range(60):  # about a second of frames
        page.evaluate("new Promise(requestAnimationFrame)")
        now: dict[str, float] = page.evaluate(CHAR_RECT, [block_id, offset, False])
        if now == before:
            return now
        before = now
    return before


def drag_select(page: Page, target: Target) -> None:
    """Press on the first character of ``target`` and release on its last one."""
    page.evaluate(CHAR_RECT, [target.block_id, target.start, True])  # into view, once
    last = settled_rect(page, target.block_id, target.end - 1)  # a scroll under way ends first
    first = page.evaluate(CHAR_RECT, [target.block_id, target.start, False])
    page.mouse.move(first["left"] + 0.5, (first["top"] + first["bottom"]) / 2)
    page.mouse.down()
    page.mouse.move(last["right"] - 0.5, (last["top"] + last["bottom"]) / 2, steps=8)
    page.mouse.up()


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def selection_rects(page: Page) -> list[dict[str, float]]:
    rects: list[dict[str, float]] = page.evaluate(
        "[...getSelection().getRangeAt(0).getClientRects()].filter(r => r.width > 0)"
        ".map(r => r.toJSON())"
    )
    return rects


def inside_viewport(rects: list[dict[str, float]], page: Page) -> bool:
    reader = box(page, "#reader-scroll")
    return bool(rects) and all(
        r["top"] >= reader["y"] - 1
        and r["bottom"] <= reader["y"] + reader["height"] + 1
        and r["left"] >= reader["x"] - 1
        and r["right"] <= reader["x"] + reader["width"] + 1
        for r in rects
    )


class AskRequests:
    """The bodies of the ``/api/ask`` requests the page sends (watched, not answered: the
    real server answers them)."""

    def __init__(self, page: Page) -> None:
        self.bodies: list[dict[str, Any]] = []
        page.on("request", self._seen)

    def _seen(self, request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/api/ask"):
            self.bodies.append(json.loads(request.post_data or "{}"))


def wait_for_answer(page: Page) -> Locator:
    """The last turn, once its stored answer (the ``done`` event) is shown."""
    turn = page.locator(".turn").last
    expect(turn).to_have_attribute("data-status", re.compile(r"^(answered|not_covered)$"))
    return turn
