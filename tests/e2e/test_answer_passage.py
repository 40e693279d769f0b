"""The reader panel's passage under an answer, in the real Chromium under the served CSP: the
paragraph the answer sits in (``answer.passage``, the JSON ``askalong.wire`` writes) shows
between the answer and its quotes, the answer's span marked at its code-point offsets
(a character outside the BMP before it included), and its button shows the marked quote;
an answer without a passage shows none."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from askalong.types import Answer, AnswerPassage, AnswerSpan, BlockSpan, Quote
from askalong.wire import answer_json
from e2e.conftest import Library

SHOW_ANSWER = """
  const turn = new m.Turn({
    question: "默认值是多少？", intent: "ask", anchor: null,
    blocks: new Map(), onQuote: (quote) => { window.shownQuote = quote.number; },
    onAnchor: () => {}, whole: "the document",
  });
  document.body.append(turn.el);
  turn.showAnswer(arg);
  const passage = turn.el.querySelector(".answer-passage");
  if (!passage) return null;
  passage.querySelector("figcaption button").click();
  const order = [...turn.el.querySelector(".answer").children].map((c) => c.className);
  return {
    caption: passage.querySelector("figcaption").textContent,
    marks: [...passage.querySelectorAll("mark.answer-mark")].map((m) => m.textContent),
    text: passage.querySelector("blockquote").textContent,
    shown: window.shownQuote,
    order,
  };
"""
PARAGRAPH = "𠀀共享缓冲池保存页面。默认值通常是128MB。这个设置只能在启动时设置。"
ANSWER = "默认值通常是128MB。"


@pytest.fixture
def served(page: Page, library: Library) -> Page:
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    return page


def _answer(with_passage: bool) -> dict[str, Any]:
    start = PARAGRAPH.index(ANSWER)  # code points, as the server counts
    quote = Quote(1, "d1", "b3", start, start + len(ANSWER), ANSWER, 2, ("缓冲区",))
    passage = AnswerPassage(
        "d1",
        PARAGRAPH,
        (BlockSpan("b3", 0, len(PARAGRAPH)),),
        (AnswerSpan(start, start + len(ANSWER), 1),),
        2,
        ("缓冲区",),
    )
    answer = Answer(
        "answered",
        "默认值是多少？",
        f"{ANSWER}[1]",
        quotes=(quote,),
        passage=passage if with_passage else None,
    )
    return dict(answer_json(answer))


def _show(page: Page, answer: dict[str, Any]) -> Any:
    script = f"async (arg) => {{ const m = await import('/panel/turn-view.js'); {SHOW_ANSWER} }}"
    return page.evaluate(script, answer)


def test_the_passage_shows_under_the_answer_with_the_answer_marked(served: Page) -> None:
    shown = _show(served, _answer(True))
    assert shown is not None
    assert shown["marks"] == [ANSWER]  # at its code points, after the astral character
    assert shown["text"] == PARAGRAPH
    assert shown["caption"].startswith("In the passage")
    assert shown["shown"] == 1  # its button showed the marked quote in the document
    order = shown["order"]
    assert order.index("answer-text") < order.index("passage") < order.index("quotes")


def test_an_answer_without_a_passage_shows_none(served: Page) -> None:
    assert _show(served, _answer(False)) is None


def test_the_explanation_shows_its_citations_as_buttons(served: Page) -> None:
    """An answer cut to its length goes on in the explanation (answer/shape.py), its "[1]"
    with it: shown as the answer's own citation button, never as "[1]"."""
    answer = _answer(False)
    answer["explanation"] = f"这个设置只能在启动时设置。{ANSWER}[1]"
    script = (
        "async (arg) => { const m = await import('/panel/turn-view.js');"
        " const turn = new m.Turn({question: 'q', intent: 'ask', anchor: null, blocks: new Map(),"
        " onQuote: (quote) => { window.shownQuote = quote.number; }, onAnchor: () => {},"
        " whole: 'the document'}); document.body.append(turn.el); turn.showAnswer(arg);"
        " const part = turn.el.querySelector('.explanation');"
        " part.querySelector('button.cite').click();"
        " return {text: part.textContent, shown: window.shownQuote}; }"
    )
    shown = served.evaluate(script, answer)
    assert "[1]" not in shown["text"] and shown["text"].endswith(f"{ANSWER}1")
    assert shown["shown"] == 1
