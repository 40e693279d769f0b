"""A text analysed once (pure): the language to answer it in, its terms and, read as a
question, its form (focus terms and expected answer type, ``text.question_form``).

A question is read by several stages (cross-references, drift, the answerer's scoring,
claim checks); each used to detect its language and tokenise it again. ``analysed`` does
both once; the stages take the ``AnalysedText``. It lives here, at the bottom, so that
every stage may take it (``askalong.asking.question`` builds it for the asked question).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from askalong.text.question_form import QuestionForm, question_form
from askalong.text.scripts import answer_language, detect_language
from askalong.text.tokens import character_pairs, key_terms


@dataclass(frozen=True)
class AnalysedText:
    text: str
    script: str  # ``detect_language(text)``: "zh", "en", "mixed" or "und" (search fusion)
    terms: frozenset[str]  # ``key_terms(text)``
    pairs: frozenset[str]  # ``character_pairs(text)``: Chinese character pairs
    form: QuestionForm  # ``question_form(text)``: what it asks about, what answers it

    @cached_property
    def language(self) -> str:
        """The language to answer in: "zh" or "en" (``answer_language``)."""
        return answer_language(self.text)

    @property
    def match_terms(self) -> frozenset[str]:
        """``terms_of(text)``: what a sentence or a claim is matched on."""
        return self.terms | self.pairs


def analysed(text: str) -> AnalysedText:
    terms = frozenset(key_terms(text))
    return AnalysedText(
        text,
        detect_language(text),
        terms,
        frozenset(character_pairs(text)),
        question_form(text, terms),
    )
