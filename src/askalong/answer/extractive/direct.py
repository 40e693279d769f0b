"""Which sentences make the offline answerer's direct answer (pure): the best one and,
at most, one more.

- the best sentence's better-scored neighbour, after it, when the two fit the answer's
  shape (``with_neighbour``, shared with the learned answerer): the best sentence is
  often the one beside the sentence holding the answer (for every intent: on the
  Explain / Example / Compare selections of ``benchmarks/explain.py`` the rule path's
  expected-phrase hit went 5 -> 7 of 17 with it, echo unchanged);
- for a best sentence that announces what follows ("Tesla stated:"), the next one;
- for a definition whose best sentence leans back on the one before ("This feature is
  also known as Row-Level Security."), that one first;
- for a why / how question whose best sentence names the focus without giving the
  cause or the means, the next sentence of its block when that one does ("X is hard.
  This is because …", "We now avoid that problem by patching the bytecode."): a two-
  sentence window;
- for a summary ("Summarise …", "总结…"), the best sentence of each further passage that
  passes the evidence threshold itself, up to ``max_quotes`` (one per passage: a summary
  spans the passages the search found, not two sentences of the first);
- for a best sentence that is an entry's terse "name — purpose" line ("LISTEN — listen
  for a notification"), the first sentence of another block that opens with that name
  ("LISTEN registers the current session as a listener …", the Description's);
- for a question whose focus terms the best sentence covers only in part, the best
  sentence of another section holding a focus term it lacks (a cross-section question:
  "what data is it trained on and how many PDFs is that?"), when that sentence scores at
  least ``CROSS_RATIO`` of the best and passes the evidence threshold itself.

The sentences are always the document's own, quoted verbatim by ``select``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from askalong.answer.extractive.boilerplate import asks
from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.cues import SUBJECT_WORDS, states_answer
from askalong.answer.extractive.entries import ENTRY_WORDS, title_terms
from askalong.answer.extractive.scoring import Scored, Weights
from askalong.answer.shape import fits
from askalong.context.units import ContextUnit
from askalong.question.reading import QuestionReading
from askalong.text.announce import announces
from askalong.text.tokens import key_terms

# Kinds that never join a direct answer (``select._may_answer`` decides the best one).
NOT_ANSWERS = frozenset({"heading", "caption", "formula", "header", "footer"})
CROSS_RATIO = 0.4  # a second section's sentence needs this share of the best score
T = TypeVar("T")


def direct_sentences(
    scored: Sequence[Scored],
    best: Scored,
    question: QuestionReading,
    units: Sequence[ContextUnit],
    *,
    weights: Weights,
    threshold: float,
) -> list[Scored]:
    """The direct answer's sentences in reading order (the best first when they come
    from two sections, for a summary from several passages, or with its neighbour)."""
    if question.asks_summary:
        return [best, *_per_passage(scored, best, weights, threshold)]
    stated = _stated_again(scored, best, weights, threshold)
    if stated is not None:
        return [best, stated]
    antecedent = _antecedent(scored, best) if question.form.answer_type == "definition" else None
    if antecedent is not None:
        return [antecedent, best]
    window = _window(scored, best, question)
    if window is not None:
        return [best, window]
    other = _other_section(scored, best, question, units, threshold)
    if other is not None:
        return [best, other]
    near = [s for s in (neighbour(scored, best.candidate, d) for d in (-1, 1)) if s is not None]
    near = [s for s in near if _answers(s)]
    return with_neighbour(best, near, lambda s: s.score, lambda s: s.candidate.text)


def with_neighbour(
    best: T, near: Sequence[T], score: Callable[[T], float], text: Callable[[T], str]
) -> list[T]:
    """``best``, then the better-scored of its neighbours ``near`` when the two together
    fit the answer's shape (``shape.fits``); ``best`` alone otherwise."""
    if not near:
        return [best]
    other = max(near, key=score)
    return [best, other] if fits(f"{text(best)} {text(other)}") else [best]


def _per_passage(
    scored: Sequence[Scored], best: Scored, weights: Weights, threshold: float
) -> list[Scored]:
    """The best sentence of each other passage that is evidence on its own, in the
    search's order, up to ``max_quotes`` with the best."""
    by_unit: dict[int, Scored] = {}
    for item in scored:
        unit = item.candidate.unit
        if unit == best.candidate.unit or item.evidence < threshold or not _answers(item):
            continue
        if item.candidate.kind in ("code", "table"):  # a summary states, it does not list
            continue
        if unit not in by_unit or item.score > by_unit[unit].score:
            by_unit[unit] = item
    chosen = [by_unit[u] for u in sorted(by_unit)]
    return chosen[: max(weights.max_quotes - 1, 0)]


def _stated_again(
    scored: Sequence[Scored], best: Scored, weights: Weights, threshold: float
) -> Scored | None:
    """For a best sentence opening its entry as "name — purpose", the best first sentence
    of another block whose opening words hold the entry's name."""
    c = best.candidate
    if not c.opens or not c.entry or " — " not in c.text[:120]:
        return None
    name = title_terms(c.entry[-1]) - ENTRY_WORDS
    found = [
        s
        for s in scored
        if s.candidate.index == 0
        and s.candidate.block_id != c.block_id
        and " — " not in s.candidate.text[:120]
        and s.evidence >= threshold
        and s.score >= CROSS_RATIO * best.score
        and _answers(s)
        and s.candidate.kind == "paragraph"
        and name <= key_terms(" ".join(s.candidate.text.split()[:SUBJECT_WORDS]))
    ]
    return max(found, key=lambda s: s.score, default=None) if name else None


def neighbour(scored: Sequence[Scored], of: Candidate, step: int) -> Scored | None:
    """The sentence ``step`` places from ``of`` in the same piece, if any."""
    for item in scored:
        c = item.candidate
        if (c.unit, c.piece, c.index) == (of.unit, of.piece, of.index + step):
            return item
    return None


def _answers(item: Scored) -> bool:
    """Whether a sentence may join a direct answer: never a heading or the like or a
    question, nor one announcing what follows ("… computed as follows:") as the second
    sentence."""
    text = item.candidate.text
    if item.candidate.kind in NOT_ANSWERS or asks(text):
        return False
    return item.score > 0 and not announces(text)


# A sentence opening on a pronoun or a demonstrative ("This feature is also known as
# Row-Level Security.", "It also blocks …") speaks of what the sentence before it named.
_LEANS_BACK = re.compile(r"(?:this|these|that|those|it|they|such)\b|这|此|该|它", re.IGNORECASE)


def _antecedent(scored: Sequence[Scored], best: Scored) -> Scored | None:
    """For a best sentence that leans back on the one before it in its block, that
    sentence: without what it points back to, "This feature …" defines nothing (a value
    asked for, "It is 6,400 kilometres long.", is answered by the sentence alone)."""
    if _LEANS_BACK.match(best.candidate.text.lstrip()) is None:
        return None
    before = neighbour(scored, best.candidate, -1)
    return before if before is not None and _answers(before) else None


def _window(scored: Sequence[Scored], best: Scored, question: QuestionReading) -> Scored | None:
    """The next sentence, when the best announces it, or for why / how when the best does
    not state the cause or the means and the next one does."""
    after = neighbour(scored, best.candidate, 1)
    if after is None or not _answers(after):
        return None
    if announces(best.candidate.text):
        return after
    form = question.form
    if form.answer_type not in ("reason", "method") or states_answer(form, best.candidate.text):
        return None
    return after if states_answer(form, after.candidate.text) else None


def joined(sentences: list[str], language: str) -> str:
    """Sentences in a row: Chinese ones run on, but never into the next sentence's first
    Latin word ("[4] pg_dump is …", not "[4]pg_dump")."""
    out = ""
    for sentence in sentences:
        latin = sentence[:1].isascii() and sentence[:1].isalnum()
        out += sentence if not out or (language == "zh" and not latin) else " " + sentence
    return out


def _other_section(
    scored: Sequence[Scored],
    best: Scored,
    question: QuestionReading,
    units: Sequence[ContextUnit],
    threshold: float,
) -> Scored | None:
    """The best sentence of another unit or section holding a focus term the best
    sentence lacks, when it scores close enough and is evidence on its own."""
    focus = question.form.focus_terms
    lacking = focus - best.terms
    if len(focus) < 2 or not lacking or not focus & best.terms:
        return None
    place = _section(best.candidate, units)
    found = [
        s
        for s in scored
        if s.terms & lacking
        and _answers(s)
        and s.evidence >= threshold
        and s.score >= CROSS_RATIO * best.score
        and _section(s.candidate, units) != place
    ]
    return max(found, key=lambda s: s.score, default=None)


def _section(candidate: Candidate, units: Sequence[ContextUnit]) -> tuple[str, ...]:
    """The document and section path of a sentence's block."""
    unit = units[candidate.unit]
    return (unit.document_id, *unit.place(candidate.block_id).section_path)
