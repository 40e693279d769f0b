"""Cue phrases (English and Chinese) that mark a sentence as a definition, an example or a
contrast, and question words that expect a number or date in the answer.

The patterns are deliberately plain: a cue only breaks ties between sentences that are
already about the question, it never makes an unrelated sentence an answer.
"""

from __future__ import annotations

import re

from askalong.text.analysed import AnalysedText
from askalong.text.tokens import key_terms
from askalong.types import Intent

_I = re.IGNORECASE

EXPLAIN_CUES = re.compile(
    r"\b(?:refers? to|is defined as|are defined as|defined as|we define|denotes?|means|"
    r"is called|are called|known as|stands for|is a|is an|are a|is the|are the|"
    r"is a kind of|is a type of|that is|i\.e\.)\b"
    r"|称为|称作|是指|指的是|即|定义为|叫做|叫作|所谓|意思是|意为|是一种|是一个|是一类",
    _I,
)
EXAMPLE_CUES = re.compile(
    r"\b(?:for example|for instance|e\.g\.|such as|including|an example|examples? of|"
    r"to illustrate|like)\b|例如|比如|譬如|诸如|举例|例子|以.{1,8}为例|像是|包括",
    _I,
)
COMPARE_CUES = re.compile(
    r"\b(?:unlike|whereas|while|in contrast|by contrast|compared (?:with|to)|"
    r"differs?|different|difference|than|however|but|on the other hand|rather than|"
    r"instead of)\b|而|不同于|不同|区别|差异|相比|相较|相对于|然而|但是|却|与其|比.{1,6}更",
    _I,
)
_CUES: dict[Intent, re.Pattern[str]] = {
    "explain": EXPLAIN_CUES,
    "example": EXAMPLE_CUES,
    "compare": COMPARE_CUES,
}

# Questions whose answer is a number or a date, and sentences that hold one.
NUMERIC_QUESTION = re.compile(
    r"\b(?:when|what year|which year|what date|how many|how much|how long|how old|"
    r"how far|how large|how big|what percentage|what percent|how often)\b"
    r"|哪一?年|何时|什么时候|多少|几[年个位次岁天月种名]|多久|多长|多大|多高|多远|哪天|几月|百分之",
    _I,
)
NUMBER_IN_TEXT = re.compile(r"\d|[一二三四五六七八九十百千万亿两]+[年月日个位次岁倍种%]")


def cue_score(intent: Intent, sentence: str) -> float:
    """1.0 when ``sentence`` has a cue of the intent, 0.0 otherwise (and for "ask")."""
    pattern = _CUES.get(intent)
    return 1.0 if pattern is not None and pattern.search(sentence) else 0.0


def wants_number(question: str) -> bool:
    return NUMERIC_QUESTION.search(question) is not None


def has_number(sentence: str) -> bool:
    return NUMBER_IN_TEXT.search(sentence) is not None


# A sentence that continues the one before: it opens with a pronoun or demonstrative, or
# the one before ended on a colon or semicolon (Chinese lists run on with "；").
_ANAPHOR = re.compile(
    r"(?:this|these|that|those|it|its|they|their|he|she|his|her|such|there)\b"
    r"|这|此|其|它|他|她|该|也|并|因此|所以|从而",
    _I,
)


def continues(before: str, sentence: str) -> bool:
    """Whether ``sentence`` plainly continues ``before``."""
    return before.rstrip()[-1:] in (";", "；", ":", "：", ",", "，") or (
        _ANAPHOR.match(sentence.lstrip()) is not None
    )


# Words that ask about "this" without naming anything: a question made only of them (the
# quick intents "Explain this.", "举例说明这段内容。", or "What does this part say?") is
# about the selected text, so the selection's terms are what the evidence must cover.
_DEICTIC_EN = frozenset(
    key_terms(
        "explain explanation example examples give differ differs different difference "
        "differences related relate ideas idea concept concepts mean means meaning say says "
        "said part passage section paragraph sentence text follow follows following else "
        "tell describe elaborate clarify illustrate compare contrast here more detail "
        "details point imply implies implication talk talks about please show me us "
        "other another again also what"
    )
)
_DEICTIC_ZH = re.compile(
    "这段话|这句话|这一段|这部分|这段|这句|这里|此处|这个|解释|说明|举例|例子|举个|内容|"
    "相关|概念|不同|区别|差异|意思|含义|意味着|讲的|讲了|讲|说的|说了|说|部分|段落|详细|"
    "一下|比较|表示|什么|有|这|此|请|还|其他|别的"
)


def about_selection(question: AnalysedText) -> bool:
    """Whether ``question`` names nothing beyond "this": its only terms ask to explain,
    exemplify, compare or restate the selection."""
    rest = _DEICTIC_ZH.sub(" ", question.text)
    # with no Chinese deictic word taken out, the rest's terms are the question's own
    terms = question.terms if rest == question.text else key_terms(rest)
    return not (terms - _DEICTIC_EN)
