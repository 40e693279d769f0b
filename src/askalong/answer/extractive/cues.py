"""Cue phrases (English and Chinese) that mark a sentence as a definition, an example or a
contrast, and the shape of a sentence that answers a question of a given answer type.

The patterns are deliberately plain: a cue only breaks ties between sentences that are
already about the question, it never makes an unrelated sentence an answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.question.form import AnswerType, QuestionForm
from askalong.text.patterns import LazyPattern, lazy
from askalong.text.tokens import key_terms
from askalong.types import Intent

_I = re.IGNORECASE

EXPLAIN_CUES = lazy(
    r"\b(?:refers? to|is defined as|are defined as|defined as|we define|denotes?|means|"
    r"is called|are called|known as|stands for|is a|is an|are a|is the|are the|"
    r"is a kind of|is a type of|that is|i\.e\.)\b"
    r"|称为|称作|是指|指的是|即|定义为|叫做|叫作|所谓|意思是|意为|是一种|是一个|是一类",
    _I,
)
EXAMPLE_CUES = lazy(
    r"\b(?:for example|for instance|e\.g\.|such as|including|an example|examples? of|"
    r"to illustrate|like)\b|例如|比如|譬如|诸如|举例|例子|以.{1,8}为例|像是|包括",
    _I,
)
COMPARE_CUES = lazy(
    r"\b(?:unlike|whereas|while|in contrast|by contrast|compared (?:with|to)|"
    r"differs?|different|difference|than|however|but|on the other hand|rather than|"
    r"instead of)\b|而|不同于|不同|区别|差异|相比|相较|相对于|然而|但是|却|与其|比.{1,6}更",
    _I,
)
_CUES: dict[Intent, LazyPattern] = {
    "explain": EXPLAIN_CUES,
    "example": EXAMPLE_CUES,
    "compare": COMPARE_CUES,
}

# What a sentence holds when it answers a question of each type (``QuestionForm``): a
# number for how many, a date for when, a cause for why, a means for how, a definition
# for what-is. Only a fit: coverage of the question still decides what is about it.
NUMBER_IN_TEXT = lazy(r"\d|[一二三四五六七八九十百千万亿两]+[年月日个位次岁倍种%]")
DATE_IN_TEXT = lazy(
    r"\b(?:1[5-9]\d\d|20\d\d)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d"
    r"|\b(?:century|decade|year|years|month|months|day|days|ago|since|until|during|before|after)\b"
    r"|\d+\s*年|[一二三四五六七八九十〇零]+年|\d+\s*月|世纪|年代|期间|之前|之后|以来",
    _I,
)
# Cause and method cues come in two strengths: a strong cue states the cause or the means
# ("because", "so that", "by patching", 因为, 通过); a weak one only may ("helps", "with",
# 可以, 用). A weak cue is half a fit: in the Java manual "如果不使用线程池" holds 使用 as
# surely as the rule naming ThreadPoolExecutor does, and "with" is in every other sentence.
CAUSE_CUES = lazy(
    r"\b(?:because|due to|owing to|so that|as a result|therefore|hence|in order to|"
    r"this is why|(?:which|that) (?:is|are|was) why|the reason|reasons? (?:is|are|for|why)|"
    r"is based on|based on the (?:expectation|observation|assumption)|since (?:the|it|they|"
    r"this|we|a|an|there|most|many|each|every|our|its|their)|otherwise)\b"
    r"|因为|由于|所以|为了|因此|因而|原因|目的|否则|以便|以免|是为了|之所以",
    _I,
)
WEAK_CAUSE_CUES = lazy(
    r"\b(?:thus|since|leads? to|caus(?:e|es|ed|ing)|reason|motivat\w*|intuitively|"
    r"allows?|enables?|helps?|avoids?|prevents?|expect\w*|risk)\b"
    r"|从而|导致|避免|防止|容易|风险|会",
    _I,
)
METHOD_CUES = lazy(
    r"\b(?:by (?:\w+ing|using|means of|a|an|the)|using|via|through|first\b[^.;]{0,80}\bthen|"
    r"steps?|we (?:use|train|compute|apply|build|construct|run|feed|split|obtain|first|then|"
    r"simply|extend|add|define|replace|patch|take|choose|select)|"
    r"(?:is|are|was|were) (?:done|computed|built|obtained|trained|performed|chosen|"
    r"selected|sampled|generated|derived|calculated|determined|decided|found) "
    r"(?:by|with|using|from|via)|simply)\b"
    r"|通过|采用|利用|步骤|首先|然后|其次|的方式|的方法|即可|设置|使用\s?\S{1,12}?\s?(?:来|进行)",
    _I,
)
# What a sentence only proposes ("As future work, this could be avoided by …") is not how
# it is done: its cue counts half.
HEDGE = lazy(r"\b(?:future work|could be|might|would be|we plan|remains? to)\b", _I)
WEAK_METHOD_CUES = lazy(
    r"\b(?:by|uses?|with|first|then|next|finally|method|approach|we)\b"
    r"|使用|方法|最后|先|再|用|可以",
    _I,
)
DEFINITION_CUES = EXPLAIN_CUES
# A name: a capitalised word or acronym past the sentence's first word ("AllenNLP", "GloVe").
_NAME = lazy(r"(?<=\S\s)(?:[A-Z][a-z]*[A-Z][\w-]*|[A-Z]{2,}[\w-]*|[A-Z][a-z]{2,})\b")
_WEAK_FIT: dict[AnswerType, LazyPattern] = {
    "reason": WEAK_CAUSE_CUES,
    "method": WEAK_METHOD_CUES,
}
_FIT: dict[AnswerType, LazyPattern] = {
    "quantity": NUMBER_IN_TEXT,
    "time": DATE_IN_TEXT,
    "reason": CAUSE_CUES,
    "method": METHOD_CUES,
    "definition": DEFINITION_CUES,
}


def _names_something(sentence: str, question_terms: frozenset[str]) -> bool:
    """Whether ``sentence`` names something the question does not (a name, an acronym)."""
    return any(key_terms(m.group()) - question_terms for m in _NAME.finditer(sentence))


def cue_score(intent: Intent, sentence: str) -> float:
    """1.0 when ``sentence`` has a cue of the intent, 0.0 otherwise (and for "ask")."""
    pattern = _CUES.get(intent)
    return 1.0 if pattern is not None and pattern.search(sentence) else 0.0


def answer_fit(
    form: QuestionForm, sentence: str, terms: set[str], question_terms: frozenset[str]
) -> float:
    """How well ``sentence`` (its ``terms``) has the shape of an answer to a question of
    ``form``: 1.0 with the type's cue (for what / which X: naming an X), else 0.0."""
    if form.answer_type == "entity":
        # half for the kind asked ("loss" for "what loss"), half for naming something
        asked = 0.5 if form.asked_terms and form.asked_terms <= terms else 0.0
        return asked + (0.5 if _names_something(sentence, question_terms) else 0.0)
    pattern = _FIT.get(form.answer_type)
    if pattern is None:
        return 0.0
    if form.answer_type == "time" and NUMBER_IN_TEXT.search(sentence):
        return 1.0 if pattern.search(sentence) else 0.5  # a number, perhaps a date
    weak = _WEAK_FIT.get(form.answer_type)
    hedged = 0.5 if weak is not None and HEDGE.search(sentence) else 1.0
    if pattern.search(sentence):
        return hedged
    return 0.5 * hedged if weak is not None and weak.search(sentence) else 0.0


def states_answer(form: QuestionForm, sentence: str) -> bool:
    """Whether ``sentence`` holds a strong cue of a why / how question's answer type (the
    cause, the means): what the sentence after the one naming the focus must hold to join
    the direct answer ("X is hard. This is because …")."""
    pattern = _FIT.get(form.answer_type) if form.answer_type in _WEAK_FIT else None
    return pattern is not None and pattern.search(sentence) is not None


# A manual's sentence that opens with the question's subject (``QuestionReading.subject``:
# "VACUUM FULL", "work_mem") and says what it does ("LISTEN registers …", "The COALESCE
# function returns …", "work_mem — Sets …") is its definition; one opening on a condition
# or an aside ("If true, the autovacuum daemon will …", "Like a CASE expression, COALESCE
# only …", "There is a race condition …") is about something else that involves it.
_ARTICLE = lazy(r"^\W*(?:the|a|an)\s+", _I)
_ASIDE = lazy(
    r"^\W*(?:if|when|whenever|unless|although|though|while|like|unlike|without|however|"
    r"but|also|note|be aware|there (?:is|are|was|were)|even|except|as with|in (?:this|that|"
    r"such|the default|most|many|some)|once|after|before)\b",
    _I,
)
SUBJECT_WORDS = 5  # a subject opens a sentence within its first this many words


def opens_with_subject(sentence: str, names: Sequence[str]) -> bool:
    """Whether ``sentence`` states something of one of ``names``: it is named within the
    first words (after an article, or as a definition list's term before " — "), and
    the sentence does not open on a condition or an aside."""
    if not names or _ASIDE.match(sentence):
        return False
    head = sentence.split(" — ", 1)[0] if " — " in sentence[:80] else sentence
    opening = " ".join(_ARTICLE.sub("", head).split()[:SUBJECT_WORDS]).lower()
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", opening) for n in names)


# A sentence that continues the one before: it opens with a pronoun or demonstrative, or
# the one before ended on a colon or semicolon (Chinese lists run on with "；").
_ANAPHOR = lazy(
    r"(?:this|these|that|those|it|its|they|their|he|she|his|her|such|there)\b"
    r"|这|此|其|它|他|她|该|也|并|因此|所以|从而",
    _I,
)


def continues(before: str, sentence: str) -> bool:
    """Whether ``sentence`` plainly continues ``before``."""
    return before.rstrip()[-1:] in (";", "；", ":", "：", ",", "，") or (
        _ANAPHOR.match(sentence.lstrip()) is not None
    )
