"""A chat answer's numbers as a reader follows them (``agent/numbering``): the
registry numbers every passage found and only the cited are shown, so "[3] … [2]" with no
[1] becomes "[1] … [2]": shown sources 1..N in the order of first citation, across the
parts of a two-part answer, with every field holding a number mapped alike."""

from __future__ import annotations

from askalong.agent.numbering import FirstCited, shown_in_order
from askalong.types import Claim
from askalong.values.chat_answers import ChatAnswer, ChatPart, ChatSource, CitationScores, ToolStep


def source(number: int, title: str) -> ChatSource:
    return ChatSource(number, "d1", title, 4, ("Intro",), "b1", 0, 5, "text", "supported")


def two_part_answer() -> ChatAnswer:
    first = ChatPart("What is A?", "answered", "A is first [3].", (3,))
    second = ChatPart("What is B?", "answered", "B is second [2]. Both [3, 2].", (2, 3))
    return ChatAnswer(
        status="answered",
        question="What is A? And B?",
        answer="1. What is A?\nA is first [3].\n\n2. What is B?\nB is second [2]. Both [3, 2].",
        parts=(first, second),
        sources=(source(2, "Bee"), source(3, "Ay")),  # number order, as the checks give
        claims=(
            Claim("A is first [3].", (3,), "supported"),
            Claim("B is second [2].", (2,), "supported"),
        ),
        steps=(
            ToolStep("search_knowledge", {"query": "A"}, "3 passages", (1, 2, 3)),
            ToolStep("search_knowledge", {"query": "B"}, "2 passages", (2, 4)),
        ),
        scores=CitationScores(1.0, 1.0, 2, 2),
    )


def test_shown_sources_are_numbered_in_the_order_first_cited_with_no_gap() -> None:
    shown = shown_in_order(two_part_answer())
    assert shown.answer == (
        "1. What is A?\nA is first [1].\n\n2. What is B?\nB is second [2]. Both [1, 2]."
    )
    assert [(s.number, s.title) for s in shown.sources] == [(1, "Ay"), (2, "Bee")]
    assert [p.answer for p in shown.parts] == ["A is first [1].", "B is second [2]. Both [1, 2]."]
    assert [p.sources for p in shown.parts] == [(1,), (2, 1)]
    assert [c.quote_numbers for c in shown.claims] == [(1,), (2,)]


def test_passages_found_but_not_shown_follow_the_shown_ones() -> None:
    shown = shown_in_order(two_part_answer())
    assert [s.sources for s in shown.steps] == [(3, 2, 1), (2, 4)]


def test_an_answer_already_in_order_is_unchanged() -> None:
    answer = shown_in_order(two_part_answer())
    assert shown_in_order(answer) == answer


def test_streamed_parts_show_the_numbers_the_finished_answer_will() -> None:
    answer = two_part_answer()
    streamed = FirstCited()
    parts = [streamed.part(p) for p in answer.parts]
    assert parts == list(shown_in_order(answer).parts)
