"""A question read once (``question/reading``): each reading on the same question asked in
English, Simplified and Traditional Chinese (Traditional is read as Simplified is: 什麼 is
什么, never a word the evidence must hold), and one reading per question asked, by the
asker and by the chat agent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import askalong.question.reading as reading_module
from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.answer.extractive.select import answer_extractively
from askalong.asking.choose import make_asker
from askalong.asking.question import Question
from askalong.config import Settings
from askalong.context.units import ContextUnit
from askalong.ingest.inputs import Upload
from askalong.library import Library
from askalong.question.reading import QuestionReading, read_question
from askalong.types import Access, BlockSpan

Asked = tuple[str, str, str]  # (English, Simplified, Traditional)


def each_script(asked: Asked, read: Callable[[QuestionReading], Any]) -> list[Any]:
    return [read(read_question(text)) for text in asked]


@pytest.mark.parametrize(
    ("asked", "answer_type"),
    [
        (
            ("Why can't magic values be used?", "为什么不能使用魔法值？", "為什麼不能使用魔法值？"),
            "reason",
        ),
        (("What is a magic value?", "什么是魔法值？", "什麼是魔法值？"), "definition"),
        (
            (
                "How should a thread pool be created?",
                "线程池应该怎么创建？",
                "線程池應該怎麼創建？",
            ),
            "method",
        ),
        (
            (
                "When was this version released?",
                "这个版本是什么时候发布的？",
                "這個版本是什麼時候發佈的？",
            ),
            "time",
        ),
        (
            (
                "How many characters may a line hold?",
                "单行最多允许多少个字符？",
                "單行最多允許多少個字元？",
            ),
            "quantity",
        ),
        (
            (
                "Does SPECTER need citations?",
                "SPECTER 需要引用信息吗？",
                "SPECTER 需要引用資訊嗎？",
            ),
            "yes_no",
        ),
    ],
)
def test_the_answer_type(asked: Asked, answer_type: str) -> None:
    assert each_script(asked, lambda r: r.form.answer_type) == [answer_type] * 3


def test_a_simplified_or_english_question_is_read_as_it_is() -> None:
    for text in ("线程池应该怎么创建？", "这篇论文的结论是什么？", "What is a magic value?"):
        assert read_question(text).plain == text
    assert read_question("為什麼這個線程池不能用？").plain == "为什么这个线程池不能用？"


def test_the_focus_leaves_the_question_words_out_in_every_script() -> None:
    english, simplified, traditional = each_script(
        ("What is a magic value?", "什么是魔法值？", "什麼是魔法值？"), lambda r: r.form.focus_terms
    )
    assert english == {"magic"} and simplified == traditional == {"魔法值"}  # "value": generic
    # a Traditional content word is kept as the question writes it: the documents hold it so
    conclusion = read_question("這篇論文的結論是什麼？").form
    assert conclusion.focus_terms == {"結論"} and conclusion.asked == "這篇論文的結論"
    assert read_question("線程池應該怎麼創建？").form.focus_terms == {"線程", "創建", "應該"}


@pytest.mark.parametrize(
    ("asked", "leans"),
    [
        (("And what is its default?", "那默认值呢？", "那預設值呢？"), True),
        (
            (
                "How should a thread pool be created?",
                "线程池应该怎么创建？",
                "線程池應該怎麼創建？",
            ),
            False,
        ),
    ],
)
def test_leaning_on_the_thread(asked: Asked, leans: bool) -> None:
    assert each_script(asked, lambda r: r.leans_on_thread) == [leans] * 3


@pytest.mark.parametrize(
    ("asked", "points"),
    [
        (("What follows from this?", "这说明了什么？", "這說明了什麼？"), True),
        (("What does this paper propose?", "本文提出了什么？", "本文提出了什麼？"), False),
    ],
)
def test_pointing_at_the_anchor(asked: Asked, points: bool) -> None:
    assert each_script(asked, lambda r: r.points_at_anchor) == [points] * 3


def test_a_summary_and_an_overview() -> None:
    summary = ("Summarise the naming rules.", "总结命名规定。", "總結命名規定。")
    assert each_script(summary, lambda r: (r.asks_summary, r.asks_overview)) == [(True, True)] * 3
    ways = ("What are the ways to reduce WAL?", "减少WAL有哪些方法？", "減少WAL有哪些方法？")
    assert each_script(ways, lambda r: (r.asks_summary, r.asks_overview)) == [(False, True)] * 3


def test_the_subject_and_a_question_about_the_selection_only() -> None:
    named = ("What is work_mem?", "work_mem 是什么？", "work_mem 是什麼？")
    assert each_script(named, lambda r: r.subject) == [("work_mem",)] * 3
    bare = ("Explain this.", "解释这段内容。", "解釋這段內容。")
    assert each_script(bare, lambda r: r.about_selection) == [True] * 3
    assert each_script(named, lambda r: r.about_selection) == [False] * 3


def test_naming_its_own_subject() -> None:
    own = ("What does shared_buffers set?", "什么是事务？", "什麼是事務？")
    assert each_script(own, lambda r: r.names_subject) == [True] * 3
    leaning = ("What is its default?", "它的默认值是多少？", "它的預設值是多少？")
    assert each_script(leaning, lambda r: r.names_subject) == [False] * 3


def test_the_parts_each_as_the_question_writes_it() -> None:
    asked = (
        "What is WAL? And also what is MVCC?",
        "什么是WAL？还有MVCC是什么？",
        "什麼是WAL？還有MVCC是什麼？",
    )
    english, simplified, traditional = each_script(asked, lambda r: [p.text for p in r.parts])
    assert english == ["What is WAL?", "what is MVCC?"]
    assert simplified == ["什么是WAL？", "MVCC是什么？"]
    assert traditional == ["什麼是WAL？", "MVCC是什麼？"]


def test_counts_a_rating_and_a_code_question() -> None:
    stats = ("How many documents are there?", "知识库里有多少篇文档？", "知識庫裡有多少篇文檔？")
    assert each_script(stats, lambda r: [p.asks_stats for p in r.parts]) == [[True]] * 3
    rating = ("Your answer is wrong", "你的回答不对", "你的回答不對")
    assert each_script(rating, lambda r: r.asks_to_rate) == [True] * 3
    callers = ("Who calls acquire?", "谁调用了acquire", "誰調用了acquire")
    assert each_script(callers, lambda r: (r.code.ask, r.code.name)) == [("callers", "acquire")] * 3


def unit_of(text: str) -> ContextUnit:
    span = BlockSpan("b0", 0, len(text))
    return ContextUnit("d1", ("c0",), text, (span,), (span,), (), 1, 0, "retrieved", 1.0)


def test_a_traditional_question_word_is_no_word_the_evidence_must_hold() -> None:
    magic = unit_of("魔法值指未經預先定義的常量。")
    for question in ("什么是魔法值？", "什麼是魔法值？"):
        assert answer_extractively(read_question(question), [magic]).status == "answered"
    east = unit_of("臺東市位於臺灣東部，東臨太平洋。")
    assert answer_extractively(read_question("臺東市的東邊是什麼海洋？"), [east]).quotes


def test_what_a_traditional_question_misses_is_named_as_it_is_written() -> None:
    stars = unit_of("恆星的總質量是恆星演化的主要因素。")
    result = answer_extractively(read_question("赫羅圖是什麼？"), [stars])
    assert result.status == "not_covered"
    assert result.explanation == "在所給文件中沒有找到：赫羅圖。"  # the note too is Traditional


def test_the_attribute_asked_of_a_named_thing() -> None:
    assert read_question("What is the default value of work_mem?").asked_attributes == {"default"}
    assert read_question("What is the maximum size of a field?").asked_attributes == {
        "maximum",
        "size",
    }
    assert not read_question("What does work_mem set?").asked_attributes


def test_the_names_it_gives() -> None:
    asked = (
        "Can ctex be compiled on Overleaf?",
        "ctex 宏包能在 Overleaf 上编译吗？",
        "ctex 巨集套件能在 Overleaf 上編譯嗎？",
    )
    assert (
        each_script(asked, lambda r: r.name_runs)
        == [(("Overleaf",),)] + [(("ctex",), ("Overleaf",))] * 2
    )  # every Latin word of a Chinese question is a name


def test_holding_any_chinese() -> None:
    assert read_question("谁调用了_wake_up_first").holds_chinese
    assert read_question("What does 的 mark?").holds_chinese
    assert not read_question("Who calls _wake_up_first?").holds_chinese


# -- read once per question asked ---------------------------------------------------------

NOTES = (
    "# Tides\n\n"
    "Tides are caused by the gravity of the Moon pulling on the oceans. "
    "The Sun adds a smaller pull, so spring tides come when both line up.\n"
)


@pytest.fixture
def readings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts read as questions, in order (every reading reads the question's form)."""
    read: list[str] = []
    form = reading_module.question_form

    def counted(text: str, terms: frozenset[str] | None = None) -> Any:
        read.append(text)
        return form(text, terms)

    monkeypatch.setattr(reading_module, "question_form", counted)
    return read


@pytest.fixture
def library(settings: Settings) -> Iterator[Library]:
    with Library(settings) as library:
        outcome = library.ingestor.add_upload(
            Upload(NOTES.encode(), "tides.md", "tides.md"), Access.local()
        )
        assert outcome.document is not None
        yield library


def test_the_asker_reads_a_question_once(library: Library, readings: list[str]) -> None:
    answer = make_asker(library).ask(Question("What causes tides?"), Access.local())
    assert answer.status == "answered"
    assert readings == ["What causes tides?"]


def test_the_chat_agent_reads_its_message_once_and_each_part_once(
    library: Library, readings: list[str]
) -> None:
    agent = make_chat_agent(library)
    agent.ask(ChatRequest("What causes tides?", Access.local()))
    assert readings == ["What causes tides?"]  # one part: the message's own reading
    readings.clear()
    agent.ask(ChatRequest("What causes tides? And also what does the Sun add?", Access.local()))
    assert readings[0] == "What causes tides? And also what does the Sun add?"
    assert Counter(readings) == Counter(
        [
            "What causes tides? And also what does the Sun add?",
            "What causes tides?",
            "what does the Sun add?",
        ]
    )
