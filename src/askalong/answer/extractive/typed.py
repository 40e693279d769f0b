"""Whether some evidence sentence holds the kind of value a question expects (pure).

"How many frames per second does the camera take?" is answered by a sentence that holds
a number *and* is about what is counted; a sentence about the camera without a number,
or a number about something else, cannot answer it. So for a question expecting a
``quantity`` (how many / much / long, 多少, 几) the evidence must hold a sentence with a
number and one of the question's distinctive focus terms. A *distinctive* term is one
found in at most half of the sentences: the document's own subject ("ctex", "TIMP") is in
most of them and says nothing about whether this detail is given.

Not for ``time``: "when" in a manual asks a condition ("When is the lock state
checked?" -> "inside a try block"), and a date may be a period ("during the Holocene").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from askalong.answer.extractive.scoring import Scored
from askalong.question.reading import QuestionReading
from askalong.text.patterns import LazyPattern, lazy
from askalong.text.scripts import detect_language

_NUMBER = lazy(
    r"\d|[一二两三四五六七八九十百千万亿半]|\b(?:one|two|three|four|five|six|seven|eight|nine|"
    r"ten|eleven|twelve|twenty|thirty|forty|fifty|hundreds?|thousands?|millions?|billions?|"
    r"dozens?|twice|thrice|half|double|single|several|few|many|once)\b",
    re.IGNORECASE,
)
_VALUE = {"quantity": _NUMBER}
DISTINCTIVE_SHARE = 0.5  # a term in more of the sentences than this is the subject
# a sentence in the other script holding a value makes the rule undecidable (an English
# question over a Chinese paper: "设计了 5 个喷嘴" answers it, and no English word says so)
MIN_SENTENCE_CHARS = 12


def typed_answer_missing(
    question: QuestionReading,
    found: frozenset[str],
    scored: Sequence[Scored],
    holds: Callable[[Scored, str], bool],
) -> bool:
    """Whether ``question`` expects a quantity and no sentence of ``scored`` holds
    one together with a distinctive found focus term (``holds``: a term in a sentence).
    With no focus term found at all, the other checks decide; so they do when much of
    the evidence is in the other script than the question's."""
    value = _VALUE.get(question.form.answer_type)
    chinese = question.holds_chinese
    if value is None or not found or not scored or _other_script(chinese, scored, value):
        return False
    limit = DISTINCTIVE_SHARE * len(scored)
    distinctive = [t for t in found if sum(holds(s, t) for s in scored) <= limit]
    if not distinctive:
        return False  # only the subject is found: the share rule decides
    return not any(
        value.search(s.candidate.text) and any(holds(s, t) for t in distinctive) for s in scored
    )


def _other_script(chinese: bool, scored: Sequence[Scored], value: LazyPattern) -> bool:
    """Whether the evidence holds a sentence in the other script than the question's
    (``chinese``: it holds any Chinese) that may give the value: for an English question
    any Chinese sentence (its numbers sit with Chinese words), for a Chinese one an
    English sentence holding a value."""
    for s in scored:
        sentence = s.candidate.text
        if len(sentence) < MIN_SENTENCE_CHARS or (detect_language(sentence) == "zh") == chinese:
            continue
        if not chinese or value.search(sentence):
            return True
    return False
