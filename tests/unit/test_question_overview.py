"""Which questions ask for what several passages say (``question/overview``): a summary, or
a list of the ways, kinds or steps."""

from __future__ import annotations

import pytest

from askalong.question.overview import asks_overview, asks_summary


@pytest.mark.parametrize(
    ("question", "overview"),
    [
        ("Summarise the transaction isolation levels PostgreSQL offers.", True),
        ("What are the ways to reduce WAL volume?", True),
        ("总结手册中的命名风格规定。", True),
        ("开服装店需要办理哪些证照，有哪些步骤？", True),
        ("What is the default value of shared_buffers?", False),
        ("截至和截止区别", False),
    ],
)
def test_an_overview_is_a_summary_or_a_list_of_ways(question: str, overview: bool) -> None:
    assert asks_overview(question) is overview


def test_a_summary_is_asked_by_name() -> None:
    assert asks_summary("Give me an overview of MVCC.") and asks_summary("概括一下这一章")
    assert not asks_summary("What are the ways to reduce WAL volume?")  # an overview, no summary
