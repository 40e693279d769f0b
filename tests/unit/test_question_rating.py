"""When the person's own message asks to rate an answer (``question/rating``): the one
turn in which the agent may write."""

from __future__ import annotations

import pytest

from askalong.question.rating import asks_to_rate


@pytest.mark.parametrize(
    "message",
    [
        "Your answer was wrong: VACUUM FULL rewrites the table.",
        "That reply is too long.",
        "thumbs down, please",
        "Feedback: cite the manual next time.",
        "这个回答不对",
        "给个差评",
    ],
)
def test_a_message_rating_an_answer_may_write(message: str) -> None:
    assert asks_to_rate(message)


@pytest.mark.parametrize(
    "message",
    [
        "What does VACUUM reclaim?",
        "What goes wrong when a checkpoint is late?",  # judging words, but of no answer
        "Summarise the tides document.",
        "表空间是什么？",
    ],
)
def test_a_question_may_not_write(message: str) -> None:
    assert not asks_to_rate(message)
