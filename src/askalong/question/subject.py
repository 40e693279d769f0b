"""What a question is about when it names it, and whether it names anything beyond "this"
(pure).

The *subject* is a command, setting or identifier the question names ("VACUUM FULL",
"work_mem", "pg_dump"); not the asked noun of a what / which question ("What loss …").
A manual's sentence that opens with it and says what it does is its definition
(``answer/extractive/cues.opens_with_subject``). A why / how question has none: its answer
is a cause or a means whatever the sentence opens with.

A question made only of words that ask about "this" (the quick intents "Explain this.",
"举例说明这段内容。", or "What does this part say?") is *about the selection*: the
selection's terms are what the evidence must cover.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from askalong.question.form import AnswerType
from askalong.text.tokens import key_terms

_NAMED = re.compile(r"\b(?:[A-Z][A-Z0-9]+(?:[ _][A-Z][A-Z0-9]+)*|\w+_\w+)\b")
_SUBJECT_TYPES = frozenset({"definition", "entity", "other", "yes_no", "time"})


def question_subject(question: str, answer_type: AnswerType) -> tuple[str, ...]:
    """The names ``question`` holds (lowercased; matched as whole words, so "work_mem" is
    not "maintenance_work_mem"); none for why / how (``answer_type`` reason, method …)."""
    if answer_type not in _SUBJECT_TYPES:
        return ()
    return tuple(dict.fromkeys(m.group().lower() for m in _NAMED.finditer(question)))


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


def about_selection(question: str, terms: Collection[str]) -> bool:
    """Whether ``question`` (its key ``terms``) names nothing beyond "this": its only
    terms ask to explain, exemplify, compare or restate the selection."""
    rest = _DEICTIC_ZH.sub(" ", question)
    # with no Chinese deictic word taken out, the rest's terms are the question's own
    own = set(terms) if rest == question else key_terms(rest)
    return not (own - _DEICTIC_EN)
