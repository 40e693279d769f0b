"""Whether a question leans on what came before (pure): a follow-up that points back
("how many of them …", "它怎么用", "those harder ones") or opens as a continuation ("And
…?", "那 …") needs the previous turn to be understood; one that names its own subject
does not, and is searched and answered as asked (an unrelated question is never forced
through the thread). A read-along question that points back ("What follows from this?",
"这说明了什么？") is about its anchor, "this paper" / "本文" being the document.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from askalong.text.tokens import key_terms

_I = re.IGNORECASE
# Pronouns and demonstratives that stand for something said before ("this paper" in a
# thread is the thread's paper too); not 应该 ("should"), 其他 / 其中 ("other", "among").
_BACK_EN = re.compile(r"\b(?:it|its|they|them|their|those|these|this|one|ones|such)\b", _I)
_BACK_ZH = re.compile(
    "它们|它|这个|那个|这些|那些|这种|那种|这样|那样|他们|她们|(?<!应)该|其(?![他它中实次余])"
)
# "that" / "there" / "then" point back only as a demonstrative or adverb ("Any catch with
# that?", "that placeholder?", "Does that happen …", "twice there?", "for transfers
# then?"), never as the clause word of "the option that controls …".
_BACK_EN_CLOSING = re.compile(
    r"\b(?:that|there|then)\W*$|\bthat\s+\w+\W*$"
    r"|^\W*(?:\w+\s+)?(?:does|did|is|was|can|could|will|would|should)\s+that\b",
    _I,
)
# Continuations: "And …", "So …", "What if …", "Now what?"; the Chinese "X 呢？" asks the
# previous question of X ("那 Mentor 呢？", "要是 at.deny 是空的呢？"); 除了 … ("besides …").
_OPENER = re.compile(
    r"^\W*(?:and|so|what about|how about|what if|also|then)\b|\bnow what\W*$"
    r"|^\W*(?:那么|那|还有|另外|而|除了)|呢[？?]?\s*$",
    _I,
)
MIN_OWN_TERMS = 2  # a question with fewer content terms is elliptic ("Why?", "多少？")


def refers_back(question: str) -> bool:
    """Whether ``question`` holds a word standing for something said before."""
    return any(
        pattern.search(question) is not None for pattern in (_BACK_EN, _BACK_EN_CLOSING, _BACK_ZH)
    )


def continues(question: str) -> bool:
    """Whether ``question`` opens (or ends) as a continuation of the previous one."""
    return _OPENER.search(question) is not None


def leans_on_thread(question: str, terms: Collection[str] | None = None) -> bool:
    """Whether ``question`` needs its thread: it points back, opens as a continuation,
    or names too little to be searched alone (``terms``: its ``key_terms``, when known)."""
    if refers_back(question) or continues(question):
        return True
    return len(key_terms(question) if terms is None else terms) < MIN_OWN_TERMS


# "this paper", "本文": the document itself, not the selection.
_DOCUMENT = re.compile(
    r"\b(?:this|its|their)\s+(?:paper|document|article|work|study|book|manual|chapter)\b"
    r"|本文|这篇(?:文章|论文)?|该文",
    re.IGNORECASE,
)
_OPENS_ZH = re.compile(r"\W*(?:这|此)")  # "这说明了什么？", "此处指什么？"


def points_at_anchor(question: str) -> bool:
    """Whether ``question`` points at the selection ("this", "它", a Chinese question
    opening with 这 / 此), the document's own name ("this paper", "本文") left out."""
    rest = _DOCUMENT.sub(" ", question)
    return refers_back(rest) or _OPENS_ZH.match(rest) is not None


def thread_subject(questions: Sequence[str]) -> list[str]:
    """What the last of a thread's ``questions`` (oldest first) is about: that question,
    and before it each earlier one as long as the later one points back ("What are hard
    negatives?" / "How many of them …?" / "Does leaving them out …?": "them" is still
    the hard negatives), oldest first."""
    chain: list[str] = []
    for question in reversed(questions):
        chain.insert(0, question)
        if not refers_back(question):
            break
    return chain
