"""What a question asks for (pure): its focus and the type of answer it expects.

Read once with the rest of the question (``question/reading``). The *focus* is what the
question is about: its content words without the question words and the words any
question about a document uses ("paper", "use", "本文"); the *asked* phrase is the noun a
what/which question wants named ("What **loss** is used …", "用什么**损失函数**训练") or
the Chinese topic before 是什么 / 怎么 / 为什么 ("**这篇论文的结论**是什么"). The
*answer type* says what an answering sentence holds beyond the question's words:

- ``definition`` (what is X, 什么是 X, X 是什么) and ``entity`` (what / which / who X);
- ``quantity`` (how many / much, 多少, 几) and ``time`` (when, 何时, 什么时候);
- ``reason`` (why, 为什么) and ``method`` (how, 怎么, 如何);
- ``yes_no`` (is / does / can …, 是否, …吗) and ``other``.

The patterns are plain and tested on real question forms; the answerer uses the type
only to prefer, among sentences that already cover the question, the one that answers.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

from askalong.text.patterns import LazyPattern, lazy
from askalong.text.tokens import key_terms

AnswerType = Literal[
    "definition", "entity", "quantity", "time", "reason", "method", "yes_no", "other"
]

_I = re.IGNORECASE

# English, tried in order on the question's opening (after "and", "so", "then" …).
_EN_TYPES: tuple[tuple[AnswerType, LazyPattern], ...] = (
    ("reason", lazy(r"\b(?:why|for what reason|what (?:is|was) the reason)\b", _I)),
    (
        "quantity",
        lazy(
            r"\bhow (?:many|much|long|old|far|large|big|often|fast|high|deep|wide)\b"
            r"|\bwhat (?:percentage|percent|proportion|fraction|number|amount|size)\b",
            _I,
        ),
    ),
    (
        "time",
        lazy(r"\bwhen\b|\bwhat (?:year|date|time|day|month)\b|\bwhich (?:year|date)\b", _I),
    ),
    ("method", lazy(r"\bhow\b|\bin what way\b|\bby what means\b", _I)),
    (
        "definition",
        lazy(
            r"^\W*(?:what|who)(?: is|'s| are| was| were) (?:an? |the )?[\w-]+(?: [\w-]+)?\W*$"
            r"|^\W*what does .+ (?:mean|stand for|refer to|do)\b|^\W*(?:define|explain)\b",
            _I,
        ),
    ),
    ("entity", lazy(r"\b(?:what|which|who|whom|whose|where)\b", _I)),
    (
        "yes_no",
        lazy(
            r"^\W*(?:is|are|was|were|do|does|did|can|could|should|will|would|has|have|"
            r"had|may|must|shall)\b",
            _I,
        ),
    ),
)
_ZH_TYPES: tuple[tuple[AnswerType, LazyPattern], ...] = (
    ("reason", lazy("为什么|为何|什么原因|原因是|何故|为啥")),
    ("quantity", lazy("多少|几[个位次种条项层年天月倍岁名]?|多[长久大高远重宽深快]")),
    ("time", lazy("何时|什么时候|哪一?年|哪天|几月|什么时间|哪个时期")),
    ("method", lazy("怎么|怎样|如何|用什么方法|通过什么|什么办法|步骤")),
    (
        "definition",
        lazy("^什么是|是什么意思|指的是什么|是指什么|的含义|的定义|是什么[？?]?$"),
    ),
    ("entity", lazy("什么|哪些|哪个|哪种|哪|谁")),
    ("yes_no", lazy("是否|是不是|能不能|可不可以|有没有|会不会|[吗么][？?]?$")),
)

# Words any question about a document may use: they say nothing about what it asks.
GENERIC_TERMS = frozenset(
    key_terms(
        "paper papers work study article document documents text author authors section "
        "passage manual chapter use used using uses mean means meaning describe described "
        "propose proposed main kind type thing things way ways exactly actually please tell "
        "me us give list name explain example happen happens get gets make makes one ones "
        "many much long often number year date time reason another other refer referring call "
        "called name named known term compare comparison differ difference differences "
        "describe elaborate illustrate concept idea ideas value values chosen choose "
        "select selected"
    )
) | frozenset(
    [
        "解释",
        "解释一下",
        "说明一下",
        "介绍一下",
        "比较一下",
        "一下",
        "举",
        "举例",
        "例子",
        "举个",
        "说明",
        "比较",
        "区别",
        "不同",
        "意思",
        "含义",
        "介绍",
        "概念",
        "几个",
        "名字",
        "名称",
        "叫",
        "叫做",
        "称为",
        "一种",
        "另",
        "另一",
        "另一种",
        "其他",
        "别的",
        "新",
        "更",
        "论文",
        "本文",
        "这篇",
        "文章",
        "文档",
        "作者",
        "手册",
        "本书",
        "章节",
        "用",
        "使用",
        "采用",
        "什么",
        "多少",
        "几",
        "怎么",
        "怎样",
        "如何",
        "为什么",
        "为何",
        "哪些",
        "哪个",
        "哪种",
        "是否",
        "有",
        "吗",
        "呢",
        "请问",
        "主要",
        "具体",
        "哪",
        "谁",
        "时候",
        "何时",
        "原因",
        "方法",
        "步骤",
        "篇",
        "个",
        "多",
        "最",
        "方式",
        "内容",
        "中",
        "里",
        "上",
        "下",
        "提到",
        "提出",
        "说",
        "讲",
    ]
)

# The asked noun of an English what/which question, and the Chinese asked noun or topic.
_AUX = r"(?:is|are|was|were|does|do|did|can|could|should|would|will|has|have|had)\b"
_EN_ASKED = lazy(
    rf"\b(?:what|which|how many|how much)\s+(?!{_AUX}|kind\b|type\b|sort\b)"
    rf"([a-z][\w-]*(?:\s+[a-z][\w-]*(?=\s+{_AUX}))?)",
    _I,
)
_EN_TOPIC = lazy(r"\b(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+?)\W*$", _I)
_ZH_DEFINED = lazy("^什么是(.{1,24}?)[？?。]?$")
_ZH_ASKED = lazy(
    "(?:(?<!为)什么|哪些|哪种|哪个|哪一种)([\u4e00-\u9fff]{1,6}?)(?:[？?，,。]|$|来|去|训练|是|用|做|对|在)"
)
_ZH_TOPIC = lazy(
    "^(.{1,24}?)(?:是什么|是啥|是指|指什么|怎么|怎样|如何|为什么|为何|有哪些|有什么|是哪|是多少|有多少|是否|何时|什么时候)"
)


@dataclass(frozen=True)
class QuestionForm:
    """``answer_type``: what an answer holds; ``asked``: the asked noun or topic ("" when
    none) and ``asked_terms`` its content terms; ``focus_terms``: the content terms the
    evidence must support (``key_terms`` stems and Chinese words, generic words removed)."""

    answer_type: AnswerType
    asked: str
    focus_terms: frozenset[str]
    asked_terms: frozenset[str] = frozenset()


def question_form(text: str, terms: frozenset[str] | None = None) -> QuestionForm:
    """``text`` read as a question (any text: a statement reads as ``other``); ``terms``
    are its ``key_terms`` when already known (the question is tokenised once)."""
    han = re.search("[\u4e00-\u9fff]", text) is not None
    answer_type = _answer_type(text, _ZH_TYPES if han else _EN_TYPES)
    if answer_type == "other" and han:  # "What is X" asked in English about Chinese words
        answer_type = _answer_type(text, _EN_TYPES)
    asked = _asked(text, han)
    known = key_terms(text) if terms is None else terms
    # a single Chinese character ("新", "大") is too common to be what a question is about
    content = frozenset(t for t in known if t not in GENERIC_TERMS)
    focus = frozenset(t for t in content if not _single_han(t)) or content
    asked_terms = frozenset(key_terms(asked)) - GENERIC_TERMS if asked else frozenset()
    return QuestionForm(answer_type, asked, focus, asked_terms)


def _single_han(term: str) -> bool:
    return len(term) == 1 and "\u4e00" <= term <= "\u9fff"


def _answer_type(text: str, table: tuple[tuple[AnswerType, LazyPattern], ...]) -> AnswerType:
    opening = re.sub(r"^\W*(?:and|so|then|also|but|ok|okay)\b[\s,]*", "", text.strip(), flags=_I)
    for kind, pattern in table:
        if pattern.search(opening):
            return kind
    return "other"


def _asked(text: str, han: bool) -> str:
    patterns = (_ZH_DEFINED, _ZH_ASKED, _ZH_TOPIC) if han else (_EN_ASKED, _EN_TOPIC)
    for pattern in patterns:
        found = pattern.search(text.strip())
        if found and key_terms(found.group(1)) - GENERIC_TERMS:
            return found.group(1).strip()
    return ""


_HAN = lazy("[\u4e00-\u9fff]")
_LATIN = lazy("[A-Za-z]")


def focus_found(
    focus: Iterable[str], terms: Collection[str], text: str
) -> tuple[frozenset[str], frozenset[str]]:
    """The focus terms that ``text`` (with its ``terms_of``) holds, and those that can be
    checked by term at all: a term in a script the text does not use (a Chinese word
    against an English paper) cannot. A Chinese word counts as typed or by one of its
    character pairs ("合作伙伴" / "伙伴"): question and text may compound it differently."""
    checkable = frozenset(t for t in focus if (_HAN if _HAN.match(t) else _LATIN).search(text))
    found = frozenset(t for t in checkable if t in terms or (_HAN.match(t) and _pair_in(t, text)))
    return found, checkable


def _pair_in(word: str, text: str) -> bool:
    """A character pair of ``word`` in ``text``, or half its characters (CMRC's questions
    reword: a pair-only test refused 6 % of its answerable questions)."""
    if any(word[i : i + 2] in text for i in range(max(len(word) - 1, 1))):
        return True
    return len(word) > 1 and sum(c in text for c in word) * 2 >= len(word)
