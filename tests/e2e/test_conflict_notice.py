"""The reader panel's conflict notice, in the real Chromium under the served CSP: an answer
whose ``conflicts`` join two of its citations (the JSON the server writes, built by
``askalong.wire``) shows one notice naming both, with what each says and a button per
citation that shows its quote; an answer with none shows no notice."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from askalong.types import Answer, ConflictNotice, Quote
from askalong.wire import answer_json
from e2e.conftest import Library

SHOW_ANSWER = """
  const turn = new m.Turn({
    question: "What is the default of full_page_writes?", intent: "ask", anchor: null,
    blocks: new Map(), onQuote: (quote) => { window.shownQuote = quote.number; },
    onAnchor: () => {}, whole: "the document",
  });
  document.body.append(turn.el);
  turn.showAnswer(arg);
  const notice = turn.el.querySelector(".notice.conflicts");
  if (!notice) return null;
  const buttons = [...notice.querySelectorAll("button.cite")];
  buttons[1].click();
  return {
    text: notice.textContent,
    role: notice.getAttribute("role"),
    buttons: buttons.map((b) => b.textContent),
    shown: window.shownQuote,
    inAnswer: notice.parentElement.classList.contains("answer-text"),
  };
"""


@pytest.fixture
def served(page: Page, library: Library) -> Page:
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    return page


def _answer(conflicts: tuple[ConflictNotice, ...]) -> dict[str, Any]:
    quotes = (
        Quote(1, "d15", "b7", 0, 19, "The default is on.", None, ("full_page_writes",)),
        Quote(2, "d16", "b7", 0, 20, "The default is off.", None, ("full_page_writes",)),
    )
    answer = Answer(
        "answered",
        "What is the default of full_page_writes?",
        "The default is on. [1] The default is off. [2]",
        quotes=quotes,
        conflicts=conflicts,
    )
    return dict(answer_json(answer))


def _show(page: Page, answer: dict[str, Any]) -> Any:
    script = f"async (arg) => {{ const m = await import('/panel/turn-view.js'); {SHOW_ANSWER} }}"
    return page.evaluate(script, answer)


def test_an_answer_citing_both_sides_shows_both_with_what_each_says(served: Page) -> None:
    conflict = ConflictNotice(1, 2, "setting", ("on",), ("off",))
    shown = _show(served, _answer((conflict,)))
    assert shown is not None and shown["inAnswer"] and shown["role"] == "note"
    assert "These sources disagree" in shown["text"]
    assert "Sources [1] and [2]" in shown["text"]
    assert "says on" in shown["text"] and "says off" in shown["text"]
    assert shown["buttons"] == ["1", "2"]
    assert shown["shown"] == 2  # the second citation's button showed its quote


def test_an_answer_without_conflicts_shows_no_notice(served: Page) -> None:
    assert _show(served, _answer(())) is None
