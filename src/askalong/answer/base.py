"""The ``Answerer`` ABC: question + evidence -> a draft answer with checked quotes.

Answerers differ in how they write (selecting sentences, or a chat model); the pipeline
around them (``askalong.asking.asker``) is the same: gather evidence, draft, verify the claims,
store the turn. A draft's quotes are already located in their sources, so every quote's
text is verbatim source text; the raw model output, if any, is kept apart in ``raw``.
"""

from __future__ import annotations

import itertools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from askalong.context.units import ContextUnit
from askalong.question.reading import QuestionReading
from askalong.text.sentences import split_sentences
from askalong.types import AnswerStatus, BlockSpan, Hit, Intent, Quote

_LEADING_MARKS = re.compile(r"(?:\[\d+\]\s*)+")  # "[1] [2] " opening a split-off sentence
# What every answerer says when the evidence does not answer the question, keyed by the
# reader's wording (``QuestionReading.wording``)
NOT_COVERED = {
    "en": "The document does not cover this.",
    "zh": "文档中没有涉及这个问题。",
    "zh-Hant": "文件中沒有涉及這個問題。",
}


def unit_quote(number: int, unit: ContextUnit, span: BlockSpan, text: str) -> Quote:
    """Quote ``number``: ``text`` (``span`` of a block of ``unit``), with the page and
    section of its block (``ContextUnit.place``)."""
    place = unit.place(span.block_id)
    return Quote(
        number=number,
        document_id=unit.document_id,
        block_id=span.block_id,
        start=span.start,
        end=span.end,
        text=text,
        page=place.page,
        section_path=place.section_path,
    )


@dataclass(frozen=True)
class HistoryTurn:
    question: str
    answer: str


@dataclass(frozen=True)
class DraftRequest:
    """What an answerer answers from. The question comes analysed (its language and terms,
    ``askalong.asking.question``); each unit knows its blocks' pages and sections, which its
    quotes carry (``ContextUnit.place``)."""

    question: QuestionReading
    intent: Intent
    units: tuple[ContextUnit, ...]  # numbered sources 1.. in this order
    history: tuple[HistoryTurn, ...] = ()  # earlier turns of the thread, oldest first
    titles: Mapping[str, str] = field(default_factory=dict)  # document id -> title
    long_selection: bool = False
    cross_section: bool = False
    # the asker's preferences about form from their feedback, newest first
    # (``askalong.feedback.guidance``): shown below the evidence rules
    guidance: tuple[str, ...] = ()
    # the search's hits the retrieved units grew from (each route's rank and score): what
    # the learned answerer's passage choice reads
    hits: tuple[Hit, ...] = ()


@dataclass(frozen=True)
class Draft:
    status: AnswerStatus
    answer: str  # the direct answer, with citation markers [n]
    quotes: tuple[Quote, ...]
    explanation: str = ""
    model: str | None = None
    route: str | None = None
    notes: tuple[str, ...] = ()
    raw: str = ""  # the model's own output, unchecked (never shown as evidence)


class Answerer(ABC):
    name: str = "answerer"
    offline: bool = False  # writes from the document alone, no language model

    @abstractmethod
    def draft(self, request: DraftRequest) -> Draft:
        """Answer from ``request.units`` only; quotes must be verbatim in them."""

    def draft_streaming(self, request: DraftRequest, on_text: Callable[[str], None]) -> Draft:
        """Like ``draft``, calling ``on_text`` with pieces of the direct answer as they are
        written (a model streams them; the default hands the answer over sentence by
        sentence, so a reader shows it growing the same way). The pieces joined are the
        draft's ``answer``; quotes come only with the draft."""
        draft = self.draft(request)
        if draft.status == "answered":
            for piece in sentence_pieces(draft.answer):
                on_text(piece)
        return draft


def sentence_pieces(text: str) -> list[str]:
    """``text`` cut before each sentence: the pieces joined are ``text`` exactly (the space
    after a sentence and the citation marks that close it, "[1] ", end its piece)."""
    cuts = [0]
    for start, _ in split_sentences(text)[1:]:
        marks = _LEADING_MARKS.match(text, start)
        cut = marks.end() if marks else start
        if cut > cuts[-1]:
            cuts.append(cut)
    cuts.append(len(text))
    return [text[a:b] for a, b in itertools.pairwise(cuts) if b > a]
