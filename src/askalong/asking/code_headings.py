"""What a code answer says around its quoted lines ("From the code of X:", "X is called
from …"), in the reader's wording: English, Simplified or Traditional Chinese."""

from __future__ import annotations

from askalong.question.reading import QuestionReading
from askalong.text.wording import wording_of

# A code answer's headings, by the reader's wording (``code_wording``)
HEADINGS = {
    "en": {
        "defined": "{name} is defined at:",
        "callers": "{name} is called from (functions of its repository):",
        "no_callers": "No function of the repository calls {name}; it is defined at:",
        "lines": "From the code of {name}:",
        "lines_any": "From the code:",
        "missing": "The code searched does not name: {names}.",
    },
    "zh": {
        "defined": "{name} 定义于：",
        "callers": "调用 {name} 的地方（仅本仓库中的函数）：",
        "no_callers": "本仓库中没有函数调用 {name}；它定义于：",
        "lines": "{name} 的代码：",
        "lines_any": "相关代码：",
        "missing": "所查代码中没有：{names}。",
    },
    "zh-Hant": {
        "defined": "{name} 定義於：",
        "callers": "呼叫 {name} 的地方（僅本儲存庫中的函式）：",
        "no_callers": "本儲存庫中沒有函式呼叫 {name}；它定義於：",
        "lines": "{name} 的程式碼：",
        "lines_any": "相關程式碼：",
        "missing": "所查程式碼中沒有：{names}。",
    },
}


def code_wording(question: QuestionReading) -> str:
    """Chinese when the question is, or holds any Chinese (谁调用了_wake_up_first), in its
    script (``text/wording``)."""
    chinese = question.language == "zh" or question.holds_chinese
    return wording_of("zh" if chinese else "en", question.traditional)


def headings(question: QuestionReading) -> dict[str, str]:
    """The headings of a code answer to ``question``."""
    return HEADINGS[code_wording(question)]
