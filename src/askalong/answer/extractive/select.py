"""The offline answerer: the evidence sentences that best answer the question, quoted.

Every sentence of every context unit is a candidate (sentences never cross blocks, so
each maps back to one block and exact offsets). A candidate's score is a weighted sum:

- ``overlap``: the share of the question's key terms the sentence holds, each term
  weighted by how rare it is among the candidates (a smoothed IDF); the previous
  question's terms (follow-ups) and the anchor's selected text count with lower weight
  and, for a question that names something, add at most ``follow_up_cap``: they break
  ties, the question dominates;
- ``similarity``: question-sentence cosine from the embedder, for the ``embed_top``
  sentences of the lexical pre-ranking only, rescaled from the embedder's typical range
  to 0..1;
- ``cue``: the sentence reads like a definition / an example / a contrast, for those
  intents; a question asking "when" / "how many" prefers sentences with a number;
- ``origin``: anchor > cross-reference > retrieved; ``drift`` (no shared term, another
  part of the document) subtracts.

The evidence score is separate from the ranking: the plain share of the question's own
terms a sentence covers (words and Chinese character pairs as two halves), plus the
similarity. Only a sentence whose evidence passes the threshold (or its neighbour in the
same block) can be the answer; with none, the answer is ``not_covered``: an anchor's
bonus or its selected terms never make an answer to an unrelated question. A question
that names nothing beyond "this" (a bare intent, "What does this mean?", see
``QuestionReading.about_selection``) is about the selection: its evidence is the
selection's terms.
A follow-up never answers with the previous answer's sentence again. Document text is
data: a sentence is only ever scored and quoted, never followed.

Measured at paragraph level (question's paragraph + a neighbour; unanswerable = the same
question over another article's paragraphs; ``benchmarks/extractive.py``), evidence hit =
a quote holds the gold answer, without an embedder: XQuAD en 0.955 hit / 0.928 declined,
XQuAD zh 0.955 / 0.945, CMRC 2018 dev 0.906 / 0.942; with the paragraph as an anchor unit
(read along) the same questions over another article's anchor are declined as often.
Thresholds differ by language because the scales do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.answer.base import NOT_COVERED, unit_quote
from askalong.answer.extractive.across import crosses, rescored
from askalong.answer.extractive.answerable import focus_support, not_found_note
from askalong.answer.extractive.boilerplate import asks, never_answers
from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.direct import (
    NOT_ANSWERS,
    direct_sentences,
    joined,
    neighbour,
)
from askalong.answer.extractive.scoring import (
    Scored,
    Weights,
    score_candidates,
)
from askalong.context.units import ContextUnit
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from askalong.text.announce import announces
from askalong.types import AnswerStatus, BlockSpan, Intent, Quote


@dataclass(frozen=True)
class ExtractiveResult:
    """What the extractive answerer found; the pipeline builds the ``Answer`` from it.

    ``answer`` is the direct answer: the best sentence(s) verbatim, each followed by its
    citation marker ``[n]``; ``quotes`` are numbered 1.. in that order and include the
    answer's own sentences. ``explanation`` is the best sentence's neighbours (unquoted).
    ``score`` is the best evidence score; ``language`` the question's ("en" / "zh").
    """

    status: AnswerStatus
    answer: str
    quotes: tuple[Quote, ...]
    explanation: str
    score: float
    language: str


def answer_extractively(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    *,
    intent: Intent = "ask",
    embedder: Embedder | None = None,
    previous_question: str | None = None,
    previous_answer: str | None = None,
    weights: Weights | None = None,
) -> ExtractiveResult:
    """Answer ``question`` from ``units`` by selecting and quoting their sentences; each
    quote carries the page and section of its block (``ContextUnit.place``).

    Only a sentence whose own evidence passes the threshold can be the answer: ranking
    bonuses (the anchor's origin, cues, the previous question) only order those. A
    follow-up whose answer would repeat ``previous_answer`` gets the next-best distinct
    evidence, or ``not_covered`` when there is none."""
    weights = weights or Weights()
    language = question.language
    scored = score_candidates(
        question,
        units,
        intent=intent,
        embedder=embedder,
        previous_question=previous_question,
        thread_answer=_thread_answer(question, previous_answer),
        weights=weights,
    )
    # across languages the embedder relates question and sentences (``across``)
    cross = crosses(question, [s.candidate for s in scored])
    if cross and embedder is not None:
        scored = rescored(question, scored, embedder, weights)
    threshold = weights.threshold_for(language, embedded=embedder is not None, cross=cross)
    # pointers, compatibility notes and rows of cells are never quoted as an answer
    quotable = [s for s in scored if not _never_answers(s.candidate, question)]
    eligible = _eligible(quotable, threshold)
    best = _best([s for s in eligible if _may_answer(s.candidate, question)], previous_answer)
    support = focus_support(question, scored, embedded=embedder is not None, cross=cross)
    if best is None or (intent == "ask" and not support.answerable):
        top = max((s.evidence for s in scored), default=0.0)
        # say what was searched for and not found, whichever check refused
        note = not_found_note(question, support)
        return ExtractiveResult(
            "not_covered", NOT_COVERED[question.wording], (), note, top, language
        )
    fresh = [s for s in quotable if not previous_answer or s.candidate.text not in previous_answer]
    direct = direct_sentences(fresh, best, question, units, weights=weights, threshold=threshold)
    return _answer(fresh, direct, units, weights, language)


_MARKER = re.compile(r"\[\d+\]")


def _thread_answer(question: QuestionReading, previous_answer: str | None) -> str | None:
    """The previous answer, for a follow-up that leans on its thread ("What does it
    measure?": "it" is what that answer named, ``QuestionReading.leans_on_thread``); None
    otherwise."""
    if not previous_answer or not question.leans_on_thread:
        return None
    return _MARKER.sub(" ", previous_answer)


def _eligible(scored: list[Scored], threshold: float) -> list[Scored]:
    """The sentences that may answer: those whose evidence passes the threshold and their
    neighbours in the same block (an example or a definition often follows the sentence
    that names the topic); never a sentence that has only a ranking bonus."""
    passing = {_place(s.candidate) for s in scored if s.evidence >= threshold}
    near = {(u, p, i + step) for u, p, i in passing for step in (-1, 1)}
    # a heading that matches ("4 结论") stands for the text below it: its first sentences
    headings = {_place(s.candidate) for s in scored if s.candidate.kind == "heading"}
    under = {(u, p + 1, i) for u, p, _ in passing & headings for i in (0, 1)}
    return [
        s
        for s in scored
        if _place(s.candidate) in passing | under
        or (_place(s.candidate) in near and s.relevance > 0)
    ]


# a heading's numbering ("2.3", "(一)", "10.【强制】") says nothing about its being a sentence
_NUMBERING = re.compile(r"^[\s\d.()（）一二三四五六七八九十、]*(?:【[^】]{1,4}】)?")
_CLAUSE = re.compile(r"[，。；：！？,.;:!?]")


def _may_answer(candidate: Candidate, question: QuestionReading) -> bool:
    """Headings, captions and formulas name a topic, never answer it (a heading that is
    a whole sentence, as a parser may misread a manual's rule, still reads as one); a
    table cell answers only when a value is asked, a code example only when the means."""
    if asks(candidate.text):  # a FAQ's question line asks what the next lines answer
        return False
    if candidate.kind == "code":  # a command is how something is done, not what it is
        return question.form.answer_type == "method"
    if candidate.kind == "table":  # one row, never the whole grid
        asked = question.form.answer_type in ("quantity", "time")
        return asked and "\n" not in candidate.text.strip()
    if candidate.kind == "heading":
        text = _NUMBERING.sub("", candidate.text).strip()
        return len(text) >= 12 and _CLAUSE.search(text) is not None
    return candidate.kind not in NOT_ANSWERS


def _never_answers(candidate: Candidate, question: QuestionReading) -> bool:
    """``boilerplate.never_answers``, for the sentences of prose (a heading stands for the
    text below it, a table row answers a value: ``_may_answer``)."""
    return candidate.kind not in ("heading", "table") and never_answers(
        candidate.text, candidate.entry, question.match_terms
    )


def _place(candidate: Candidate) -> tuple[int, int, int]:
    return candidate.unit, candidate.piece, candidate.index


def _best(eligible: list[Scored], previous_answer: str | None) -> Scored | None:
    """The best eligible sentence, one announcing what follows (``announces``) only when
    no other is eligible; when the previous turn already answered with it, the best one
    that is not in that answer (a follow-up must say something new)."""
    plain = [s for s in eligible if not announces(s.candidate.text)]
    eligible = plain or eligible
    best = max(eligible, key=lambda s: s.score, default=None)
    if best is None or not previous_answer or best.candidate.text not in previous_answer:
        return best
    fresh = [s for s in eligible if s.candidate.text not in previous_answer]
    return max(fresh, key=lambda s: s.score, default=None)


# ------------------------------------------------------------------------------ answer


def _answer(
    scored: list[Scored],
    direct: list[Scored],
    units: Sequence[ContextUnit],
    weights: Weights,
    language: str,
) -> ExtractiveResult:
    best = direct[0] if len(direct) == 1 else max(direct, key=lambda s: s.score)
    quoted = _quoted(scored, direct, weights)
    quotes = tuple(_quote(n, s.candidate, units) for n, s in enumerate(quoted, start=1))
    answer = joined([f"{q.text} [{q.number}]" for q in quotes[: len(direct)]], language)
    explanation = _explanation(scored, best, quoted, language)
    return ExtractiveResult("answered", answer, quotes, explanation, best.evidence, language)


def _quoted(scored: list[Scored], direct: list[Scored], weights: Weights) -> list[Scored]:
    """The direct answer's sentences, then the next best evidence sentences."""
    best = max(s.score for s in direct)
    rest = sorted((s for s in scored if s not in direct), key=lambda s: -s.score)
    room = max(weights.max_quotes - len(direct), 0)
    # a further quote must relate to the question, not only have an origin bonus
    extra = [s for s in rest if s.score >= weights.quote_ratio * best and s.relevance > 0]
    return [*direct, *extra[:room]]


def _quote(number: int, c: Candidate, units: Sequence[ContextUnit]) -> Quote:
    return unit_quote(number, units[c.unit], BlockSpan(c.block_id, c.start, c.end), c.text)


def _explanation(scored: list[Scored], best: Scored, quoted: list[Scored], language: str) -> str:
    """The best sentence's previous and next sentences, when not quoted already."""
    around = [neighbour(scored, best.candidate, d) for d in (-1, 1)]
    texts = [s.candidate.text for s in around if s is not None and s not in quoted]
    return joined(texts, language)
