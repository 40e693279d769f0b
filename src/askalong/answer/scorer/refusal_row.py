"""The refusal head's row (``REFUSAL``, ``training/refusal.py``): what the scorer's heads
made of a question's evidence, what the search knew of its best passage, what of the
question the evidence never says (``UNSEEN``, ``UNSAID``) and what it asks for
(``ASKS``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import get_args

import numpy as np

from askalong.answer.scorer.features import ANSWERABLE, sentence_terms
from askalong.providers.local.e5.information import word_information
from askalong.question.form import AnswerType
from askalong.text.scripts import HAN_RE
from askalong.text.tokens import BIGRAM, han_words, key_terms

# What the refusal head reads of a question (``training/refusal.py``): the answerable
# head's summary and probability, how the rank head's best candidate stands out, and what
# the search knew of the best passage (-1 where no hybrid search ran: reading along, or
# the public QA paragraphs it is also fitted on).
# What of the question no evidence text holds (``unseen_terms``)
UNSEEN = ("unseen_share", "unseen_words", "unseen_longest")
UNSEEN_WORDS_FULL = 3  # words found nowhere: this many count fully
UNSEEN_LONGEST_FULL = 12  # the longest such word's length (stemmed): this many characters
# How much of what the question says the evidence never says (``unsaid_information``)
UNSAID = ("unsaid_most", "unsaid_share", "unsaid_sum", "unsaid_words")
UNSAID_MOST_FULL = 20.0  # nats: a rare word the reader names ("wayland" ~21)
UNSAID_SUM_FULL = 40.0
_QUESTION_WORD = re.compile(r"[A-Za-z][\w'’.-]*[A-Za-z0-9]|[A-Za-z]|[\u4e00-\u9fff]+")
# What the question asks for (``QuestionForm.answer_type``), one column each: readers ask a
# document for what it does not say mostly as yes / no ("does it run on Wayland?"), a value
# or a method, rarely as why (fourteen DEV sets: 25 %, 21 %, 17 % of those questions
# uncovered, 0 % of the why questions)
ASKS = tuple(f"asks_{kind}" for kind in get_args(AnswerType))
REFUSAL = (
    *ANSWERABLE,
    "answerable",
    "rank_top",
    "rank_margin",
    "passage_answerable",
    "fused_score",
    "keyword_score",
    "vector_score",
    "across",
    "chinese_question",
    *UNSEEN,
    *UNSAID,
    *ASKS,
)
UNSEARCHED = (-1.0, -1.0, -1.0, -1.0)  # the four search columns when no hybrid search ran


def refusal_features(
    summary: np.ndarray,
    answerable: float,
    ranks: np.ndarray,
    searched: Sequence[float],
    across: bool,
    chinese: bool,
    gaps: Sequence[float],
    answer_type: str,
) -> np.ndarray:
    """One row of ``REFUSAL``: ``summary`` (``answerable_features``), the answerable
    head's probability, the rank scores of the candidates, ``searched`` (the passage
    model's answerable probability, the best hybrid hit's fused, keyword and vector
    scores, or ``UNSEARCHED``), ``gaps`` (``evidence_gaps``), ``answer_type`` (one of
    ``ASKS``)."""
    ordered = np.sort(ranks)[::-1]
    margin = ordered[0] - ordered[1] if len(ordered) > 1 else 4.0
    flags = (float(across), float(chinese))
    asked = _one_hot(answer_type)
    values = [*summary, answerable, ordered[0], margin, *searched, *flags, *gaps, *asked]
    return np.array(values, dtype=np.float32)


def _one_hot(answer_type: str) -> list[float]:
    return [float(column == f"asks_{answer_type}") for column in ASKS]


def evidence_gaps(question: str, texts: Sequence[str]) -> tuple[float, ...]:
    """``UNSEEN`` then ``UNSAID`` of ``question`` over the evidence ``texts``, whose terms
    are gathered once for both."""
    held = _held(texts)
    return (*_unseen(question, held), *_unsaid(question, held, "\n".join(texts).lower()))


def unseen_terms(question: str, texts: Sequence[str]) -> tuple[float, float, float]:
    """What of ``question`` none of the evidence ``texts`` holds (``UNSEEN``): the share
    of its terms (words and Chinese character pairs), its words (of
    ``UNSEEN_WORDS_FULL``), the longest such word (of ``UNSEEN_LONGEST_FULL`` characters).
    A thing the reader names that the search found nowhere (a format, a tool, another
    product) marks a question the document does not cover; a covered question in the
    reader's own words misses some words too, which the refusal head weighs."""
    return _unseen(question, _held(texts))


def unsaid_information(question: str, texts: Sequence[str]) -> tuple[float, ...]:
    """``UNSAID``: of ``question``'s words (Chinese ones as segmented) none of ``texts``
    holds, the most informative one's information (``word_information``, of
    ``UNSAID_MOST_FULL`` nats), their share of the question's information, their sum (of
    ``UNSAID_SUM_FULL``) and their number. ``unseen_terms`` counts what is missing; this
    weighs it by how rarely words are written: a covered question in the reader's words
    misses common words ("stuck", "largest"), an uncovered one names a thing ("GPU",
    "Wayland", "iCal") the document never does."""
    return _unsaid(question, _held(texts), "\n".join(texts).lower())


def _held(texts: Sequence[str]) -> frozenset[str]:
    return frozenset().union(*map(sentence_terms, texts))


def _unseen(question: str, held: frozenset[str]) -> tuple[float, float, float]:
    asked = sentence_terms(question)
    if not asked:
        return (0.0, 0.0, 0.0)
    missing = asked - held
    words = [t for t in missing if not t.startswith(BIGRAM)]
    longest = max((len(w) for w in words), default=0)
    return (
        len(missing) / len(asked),
        min(len(words), UNSEEN_WORDS_FULL) / UNSEEN_WORDS_FULL,
        min(longest, UNSEEN_LONGEST_FULL) / UNSEEN_LONGEST_FULL,
    )


def _unsaid(question: str, held: frozenset[str], evidence: str) -> tuple[float, ...]:
    """``unsaid_information`` over the evidence's terms ``held`` and its lower-cased text."""
    words = _question_words(question)
    if not words:
        return (0.0, 0.0, 0.0, 0.0)
    information = [word_information(w) for w in words]
    unsaid = [
        bits
        for word, bits in zip(words, information, strict=True)
        if word not in evidence and not sentence_terms(word) & held
    ]
    return (
        min(max(unsaid, default=0.0) / UNSAID_MOST_FULL, 2.0),
        sum(unsaid) / max(sum(information), 1e-6),
        min(sum(unsaid) / UNSAID_SUM_FULL, 4.0),
        float(len(unsaid)),
    )


def _question_words(question: str) -> list[str]:
    """The question's words that say something: Latin words that are no stop words
    (lower-cased), Chinese runs as the segmenter cuts them."""
    words: list[str] = []
    for run in _QUESTION_WORD.findall(question):
        if HAN_RE.match(run):
            words += [w for w in han_words(run) if w.strip()]
        elif key_terms(run):
            words.append(run.lower())
    return words
