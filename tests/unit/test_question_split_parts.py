"""A question's independent parts ("X? Also Y?", ``question/split_parts``): where it is
split, a later part searched with the subject of the part before, a part asking for the
knowledge base's counts."""

from __future__ import annotations

import pytest

from askalong.question.split_parts import part_subject, question_parts, read_parts, searched_parts
from askalong.question.stats_asks import asks_stats


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("What is MVCC and also what does VACUUM do?", ("What is MVCC", "what does VACUUM do?")),
        ("什么是WAL？还有MVCC是什么？", ("什么是WAL？", "MVCC是什么？")),
        ("什么是事务；顺便问一下什么是锁", ("什么是事务", "什么是锁")),
        ("What is a tablespace? How is one made?", ("What is a tablespace?", "How is one made?")),
        ("解释一下索引以及说明一下视图的作用", ("解释一下索引", "说明一下视图的作用")),
        ("Explain the planner; and what is a CTE?", ("Explain the planner", "what is a CTE?")),
        (
            "What does shared_buffers set, and what is its default?",
            ("What does shared_buffers set", "what is its default?"),
        ),
        ("Is WAL on disk, and how big can it grow?", ("Is WAL on disk", "how big can it grow?")),
        ("What are indexes, and views?", ("What are indexes, and views?",)),
        ("primary keys and foreign keys", ("primary keys and foreign keys",)),
        ("主键以及外键", ("主键以及外键",)),
        ("What is PostgreSQL?", ("What is PostgreSQL?",)),
        ("Is it fast? ok?", ("Is it fast? ok?",)),  # one real part: asked as typed
    ],
)  # fmt: skip
def test_question_parts(question: str, parts: tuple[str, ...]) -> None:
    assert question_parts(question) == parts


def test_a_part_asks_for_the_counts() -> None:
    assert asks_stats("How many documents are there?")
    assert asks_stats("知识库里有多少篇文档？")
    assert not asks_stats("How many rows does VACUUM scan?")


@pytest.mark.parametrize(
    ("part", "subject"),
    [
        ("What does shared_buffers set?", "shared_buffers"),
        ("What is a savepoint?", "savepoint"),
        ("What is work_mem used for?", "work_mem"),
        ("How big is the Semantic Scholar literature graph?", "Semantic Scholar literature graph"),
        ("What does REFRESH MATERIALIZED VIEW do?", "REFRESH MATERIALIZED VIEW"),
        ("What does citation precision identify in ALCE?", "citation precision"),
        ("Why did the build fail", "build"),
        ("Tell me about locks", ""),
        ("什么是事务", ""),
    ],
)
def test_a_parts_subject_in_its_own_words(part: str, subject: str) -> None:
    assert part_subject(part) == subject


@pytest.mark.parametrize(
    ("parts", "searched"),
    [
        (
            ("What does shared_buffers set?", "what does it default to?"),
            ("What does shared_buffers set?", "what does shared_buffers default to?"),
        ),
        (
            ("What is work_mem used for?", "what is its default value?"),
            ("What is work_mem used for?", "what is work_mem default value?"),
        ),
        (
            ("What does max_connections control?", "what is the typical default?"),
            (
                "What does max_connections control?",
                "what is the typical default of max_connections?",
            ),
        ),
        (  # a part naming its own subject, even one word, is searched as asked
            ("What is the fillfactor of a table?", "what is TOAST?"),
            ("What is the fillfactor of a table?", "what is TOAST?"),
        ),
        (  # a name that is also an attribute word ("limit") is still a name
            ("What does SELECT DISTINCT do?", "what does the LIMIT clause do?"),
            ("What does SELECT DISTINCT do?", "what does the LIMIT clause do?"),
        ),
        (  # no subject to carry: as asked
            ("Why did it fail?", "and what is its default?"),
            ("Why did it fail?", "and what is its default?"),
        ),
    ],
)
def test_a_part_leaning_on_the_one_before_is_searched_with_its_subject(
    parts: tuple[str, ...], searched: tuple[str, ...]
) -> None:
    assert searched_parts(parts) == searched


def test_each_part_read_with_its_search_and_its_counts() -> None:
    first, second = read_parts("What does shared_buffers set? And how many documents are there?")
    assert (first.text, first.searched, first.asks_stats) == (
        "What does shared_buffers set?",
        "What does shared_buffers set?",
        False,
    )
    assert second.text == "how many documents are there?" and second.asks_stats
    assert second.searched == "how many documents are there of shared_buffers?"  # counted as asked
