"""What a not-covered answer says was searched (``Evidence.searched``), in the question's
language, as the notice it comes with (``answer/base.NOT_COVERED``): the reader's panel
lists it under "Searched:" / "已搜索：", the CLI prints it, an export writes it."""

from __future__ import annotations

from collections.abc import Sequence

ROUTE_NAMES_ZH = {"keyword": "关键词", "vector": "语义向量"}  # retrieve/fusion.Route
PHRASES: dict[str, tuple[str, str]] = {  # (English, Chinese)
    "routes": ("routes: {routes}", "检索方式：{routes}"),
    "call_tree": (
        "the call tree from {name}, {depth} levels",
        "从 {name} 起的调用树（{depth} 层）",
    ),
    "symbols": ("the repository's symbols and calls for {names}", "代码库中 {names} 的定义与调用"),
    "definitions": (
        "the repository's definitions, by the question's words",
        "按问题的词语查找的代码库定义",
    ),
    "definition": ("the definition of {name} and its calls", "{name} 的定义及其调用"),
}


def searched_words(what: str, language: str, **values: object) -> str:
    """``PHRASES[what]`` in ``language`` ("zh" or else English), filled with ``values``."""
    english, chinese = PHRASES[what]
    return (chinese if language == "zh" else english).format(**values)


def routes_searched(routes: Sequence[str], language: str) -> str:
    """The search routes that ran ("routes: keyword, vector"; "检索方式：关键词、语义向量")."""
    if language == "zh":
        names = "、".join(ROUTE_NAMES_ZH.get(r, r) for r in routes) or "无"
    else:
        names = ", ".join(routes) or "none"
    return searched_words("routes", language, routes=names)
