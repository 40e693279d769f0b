"""Which words a reader is answered in: "en", "zh", or "zh-Hant" (pure).

Every sentence the product itself writes to a reader (the labels around the quotes, a
refusal and its note, a heading of a code answer, what was searched) is a table keyed by
wording. A Chinese reader who writes Traditional characters (什麼, 這個) is answered in
Traditional ones: each table's "zh-Hant" text is written by hand in Taiwan usage (文件 for
a document, 所選 for the selection, 呼叫 / 函式 / 程式碼 for code, 「」 for quotation
marks), never converted character by character. The wording is read once, with the
question (``QuestionReading.wording``); a quick intent's fixed prompt takes its
selection's script instead (``asking/question``).
"""

from __future__ import annotations

from askalong.text.simplified import simplified

TRADITIONAL = "zh-Hant"


def writes_traditional(text: str) -> bool:
    """Whether ``text`` writes a character in its Traditional form (a text in Simplified
    characters, or with no Chinese at all, is its own ``simplified`` image)."""
    return simplified(text) != text


def wording_of(language: str, traditional: bool) -> str:
    """The key of a label table for a reader asking in ``language`` ("en" or "zh"), who
    writes Traditional characters when ``traditional``: Chinese ones get "zh-Hant"."""
    return TRADITIONAL if language == "zh" and traditional else language


def language_of(words: str) -> str:
    """The language a wording writes ("zh" for "zh-Hant"): how its sentences are joined."""
    return "zh" if words == TRADITIONAL else words
