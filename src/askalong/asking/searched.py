"""What a not-covered answer says was searched (``Evidence.searched``), in the question's
wording, as the notice it comes with (``answer/base.NOT_COVERED``): the reader's panel
lists it under "Searched:" / "已搜索：", the CLI prints it, an export writes it."""

from __future__ import annotations

from collections.abc import Sequence

# retrieve/fusion.Route, said in each wording (``QuestionReading.wording``)
ROUTE_NAMES = {
    "en": {},
    "zh": {"keyword": "关键词", "vector": "语义向量"},
    "zh-Hant": {"keyword": "關鍵字", "vector": "語意向量"},
}
NO_ROUTE = {"en": "none", "zh": "无", "zh-Hant": "無"}
PHRASES: dict[str, dict[str, str]] = {
    "routes": {
        "en": "routes: {routes}",
        "zh": "检索方式：{routes}",
        "zh-Hant": "檢索方式：{routes}",
    },
    "call_tree": {
        "en": "the call tree from {name}, {depth} levels",
        "zh": "从 {name} 起的调用树（{depth} 层）",
        "zh-Hant": "從 {name} 起的呼叫樹（{depth} 層）",
    },
    "symbols": {
        "en": "the repository's symbols and calls for {names}",
        "zh": "代码库中 {names} 的定义与调用",
        "zh-Hant": "程式碼庫中 {names} 的定義與呼叫",
    },
    "definitions": {
        "en": "the repository's definitions, by the question's words",
        "zh": "按问题的词语查找的代码库定义",
        "zh-Hant": "依問題的詞語查找的程式碼庫定義",
    },
    "definition": {
        "en": "the definition of {name} and its calls",
        "zh": "{name} 的定义及其调用",
        "zh-Hant": "{name} 的定義及其呼叫",
    },
}


def searched_words(what: str, words: str, **values: object) -> str:
    """``PHRASES[what]`` in the reader's ``words`` ("en", "zh", "zh-Hant"), filled with
    ``values``."""
    return PHRASES[what][words].format(**values)


def routes_searched(routes: Sequence[str], words: str) -> str:
    """The search routes that ran ("routes: keyword, vector"; "检索方式：关键词、语义向量")."""
    names = ROUTE_NAMES[words]
    glue = ", " if words == "en" else "、"
    said = glue.join(names.get(r, r) for r in routes) or NO_ROUTE[words]
    return searched_words("routes", words, routes=said)
