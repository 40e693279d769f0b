"""Section titles, index and glossary entries, section scores (``index/sections.py``)."""

from __future__ import annotations

import pytest

from askalong.index.keyword import search_tokens
from askalong.index.sections import (
    Pointer,
    index_pointers,
    is_index_page,
    normal_title,
    section_scores,
    title_keys,
    title_number,
)


@pytest.mark.parametrize(
    ("title", "normal", "number"),
    [
        ("13.2. Transaction Isolation", "transaction isolation", "13.2"),
        ("Chapter 13. Concurrency Control", "concurrency control", "13"),
        ("Appendix M. Glossary", "glossary", "M"),
        ("F.1. adminpack", "adminpack", "F.1"),
        ("Index Access Methods", "index access methods", None),  # "Index" is a word here
        ("第3章 安装", "安装", "3"),
        ("DROP TABLE", "drop table", None),
    ],
)
def test_titles_lose_their_numbering(title: str, normal: str, number: str | None) -> None:
    assert normal_title(title) == normal
    assert title_number(title) == number


def test_title_keys_and_index_pages() -> None:
    keys = title_keys("13.2. Transaction Isolation", ("Serializable Isolation Level",))
    assert keys == ["transaction isolation", "#13.2", "serializable isolation level"]
    assert is_index_page("Index", ())
    assert is_index_page("Appendix M. Glossary", ())
    assert is_index_page("gnuplot 5.4", ("Index", "A"))
    assert is_index_page("手册", ("术语表",))
    assert not is_index_page("Index Access Methods", ("Basic API",))


def test_index_entries_whose_term_the_question_covers() -> None:
    text = (
        "DELETE, Deletions, Deleting Data\n"
        "deferrable transaction, Statement Behavior\n"
        "Aggregate function (routine)\n"
        "A function that combines (aggregates) many input values into one.\n"
        "For more information, see Section 9.21."
    )
    asked = search_tokens("how do I delete rows with an aggregate function")
    weight = 1 / len(asked)
    assert index_pointers(text, asked, search_tokens) == [
        Pointer("DELETE", ("deletions", "deleting data"), weight),
        Pointer("Aggregate function (routine)", ("#9.21",), 2 * weight),
    ]
    assert index_pointers(text, [], search_tokens) == []


def test_section_scores_count_the_title_once_and_two_siblings() -> None:
    scores = section_scores(
        [4.0, 2.0, 1.0, 1.0, 3.0], [1.0, 1.0, 1.0, 1.0, 0.0], ["a", "a", "a", "a", "b"],
        [True, True, True, True, False], boost=0.5, share=0.1, full=1.0,
    )  # fmt: skip
    assert scores == pytest.approx(
        [4.0 + 1.0 + 0.1 * (2.0 + 0.5), 2.0 + 1.0 + 0.1 * (4.0 + 0.5), 2.0 + 0.1 * (4.0 + 1.0),
         2.0 + 0.1 * (4.0 + 1.0), 3.0]
    )  # fmt: skip
