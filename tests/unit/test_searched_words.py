"""What a not-covered answer says was searched is said in the question's wording
(``asking/searched.py``): the reader's panel lists it under "已搜索：" beside the Chinese
notice, where "routes: keyword" and "the call tree from …" stood in English; a reader
writing Traditional characters reads it in them."""

from __future__ import annotations

import re
from typing import get_args

from askalong.asking.evidence_base import searched_evidence
from askalong.asking.searched import PHRASES, ROUTE_NAMES, routes_searched, searched_words
from askalong.retrieve.fusion import Route
from askalong.types import SearchResult


def test_the_routes_are_named_in_the_question_language() -> None:
    assert routes_searched(("keyword", "vector"), "zh") == "检索方式：关键词、语义向量"
    assert routes_searched(("keyword", "vector"), "en") == "routes: keyword, vector"
    assert routes_searched((), "zh") == "检索方式：无"
    assert routes_searched((), "en") == "routes: none"
    assert routes_searched(("keyword", "vector"), "zh-Hant") == "檢索方式：關鍵字、語意向量"


def test_every_route_has_a_chinese_name() -> None:
    assert set(get_args(Route)) <= ROUTE_NAMES["zh"].keys()
    assert set(get_args(Route)) <= ROUTE_NAMES["zh-Hant"].keys()


def test_a_chinese_question_s_evidence_says_what_was_searched_in_chinese() -> None:
    result = SearchResult("作者的邮箱地址是什么？", (), ("keyword",))
    evidence = searched_evidence((), {}, frozenset(), result, "zh")
    assert evidence.searched == ("作者的邮箱地址是什么？", "检索方式：关键词")


def test_every_phrase_has_every_wording_and_the_same_placeholders() -> None:
    for said in PHRASES.values():
        assert said.keys() == {"en", "zh", "zh-Hant"}
        assert len({frozenset(re.findall(r"\{(\w+)\}", text)) for text in said.values()}) == 1
    tree = searched_words("call_tree", "zh", name="Lock.acquire", depth=3)
    assert tree == "从 Lock.acquire 起的调用树（3 层）"
    english = searched_words("call_tree", "en", name="Lock.acquire", depth=3)
    assert english == "the call tree from Lock.acquire, 3 levels"
