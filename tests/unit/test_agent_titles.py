"""The offline agent's passage choice (pure parts): title lines left out of the passages."""

from __future__ import annotations

import pytest

from askalong.agent.title_lines import navigation as is_navigation
from askalong.agent.title_lines import untitled_units, without_title
from askalong.answer.extractive.select import answer_extractively
from askalong.context.units import ContextUnit
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, BlockSpan

TITLE = "四月是你的谎言结局是悲剧吗_百度知道"
ANSWER = "悲剧,并算不上。只是,会让人难受!"


def unit(*texts: str, document: str = "d1") -> ContextUnit:
    spans = tuple(BlockSpan(f"b{k}", 0, len(t)) for k, t in enumerate(texts))
    joined = CHUNK_JOINER.join(texts)
    return ContextUnit(document, ("c1",), joined, spans, spans, (), None, None, "retrieved", 1.0)


def test_the_title_line_is_left_out_and_the_rest_keeps_its_blocks() -> None:
    kept = without_title(unit(TITLE, ANSWER), TITLE)
    assert kept is not None
    assert kept.text == ANSWER
    assert [s.block_id for s in kept.spans] == ["b1"]
    assert [s.block_id for s in kept.cited_spans] == ["b1"]


def test_a_line_that_only_shares_words_with_the_title_stays() -> None:
    whole = unit("Keratin-dependent regulation of Aire in tumours was studied.", ANSWER)
    assert without_title(whole, "Keratin-dependent regulation of Aire") == whole


def test_a_passage_that_is_only_its_title_goes_and_the_others_keep_their_index() -> None:
    units = (unit(TITLE), unit(TITLE, ANSWER, document="d2"), unit(ANSWER, document="d3"))
    titles = {"d1": TITLE, "d2": TITLE}
    kept = untitled_units(units, titles)
    assert [index for index, _ in kept] == [1, 2]
    assert [u.text for _, u in kept] == [ANSWER, ANSWER]


def test_without_its_title_line_the_page_is_answered_from_its_answer() -> None:
    question = read_question("四月是你的谎言结局是悲剧吗")
    titled = answer_extractively(question, [unit(TITLE, ANSWER)])
    kept = without_title(unit(TITLE, ANSWER), TITLE)
    assert kept is not None
    untitled = answer_extractively(question, [kept])
    assert [q.text for q in titled.quotes] != [ANSWER]  # the title line wins with it in
    assert untitled.quotes and untitled.quotes[0].block_id == "b1"


@pytest.mark.parametrize(
    ("line", "navigation"),
    [
        ("学习啦>励志>励志大全>励志电视剧>《兰陵王妃大结局剧情介绍》正文", True),
        (
            "大家还在搜 理财到期后几天到账 交行理财到期几天到账 建行理财几天到账 中信理财 到期",
            True,
        ),
        ("悲剧,并算不上。只是,会让人难受!", False),
        ("截至目前 怎么怎么样, 截至目前 怎么怎么样, 二者 在使用上 有什么区别", False),
        ("If a > b and b > c then a > c holds.", False),
        ("SELECT a FROM t WHERE x > 1 AND y > 2", False),
    ],
)
def test_a_breadcrumb_or_a_list_of_searches_is_navigation(line: str, navigation: bool) -> None:
    assert is_navigation(line) is navigation


def test_navigation_lines_are_left_out_like_the_title() -> None:
    crumbs = "学习啦>励志>励志大全>励志电视剧>正文"
    kept = without_title(unit(crumbs, ANSWER), "")
    assert kept is not None and kept.text == ANSWER
