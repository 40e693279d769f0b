"""What a not-covered answer says was searched names the search routes in the question's
language: the reader's panel lists it under "已搜索：" beside the Chinese notice, where
"routes: keyword" stood in English."""

from __future__ import annotations

from typing import get_args

from askalong.asking.evidence_base import ROUTE_NAMES_ZH, routes_searched, searched_evidence
from askalong.retrieve.fusion import Route
from askalong.types import SearchResult


def test_the_routes_are_named_in_the_question_language() -> None:
    assert routes_searched(("keyword", "vector"), "zh") == "检索方式：关键词、语义向量"
    assert routes_searched(("keyword", "vector"), "en") == "routes: keyword, vector"
    assert routes_searched((), "zh") == "检索方式：无"
    assert routes_searched((), "en") == "routes: none"


def test_every_route_has_a_chinese_name() -> None:
    assert set(get_args(Route)) <= ROUTE_NAMES_ZH.keys()


def test_a_chinese_question_s_evidence_says_what_was_searched_in_chinese() -> None:
    result = SearchResult("作者的邮箱地址是什么？", (), ("keyword",))
    evidence = searched_evidence((), {}, frozenset(), result, "zh")
    assert evidence.searched == ("作者的邮箱地址是什么？", "检索方式：关键词")
