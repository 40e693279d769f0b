"""The offline answerer on the learned scorer (``answer/scorer``, issue 32): every
candidate sentence is scored by one model fitted on public QA data, the best one answers,
and the answerable head refuses ("not covered") below the threshold chosen on dev data.

What stays of the rule path are facts about the text, not about any document: headings,
captions, formulas and page furniture name a topic and never answer it; a sentence
announcing what follows ("… as follows:") answers with the next one, from its block or the
next (a code block, a list: ``direct_choice._announced``; ten never-seen DEV sets 670 ->
683 of 1,199, none lost: ``benchmarks/results/announced-DEV-2026-12-06.md``), as does a
sentence left unfinished right above a code block (``direct_choice._leads_into``: eleven
sets 752 -> 755); the sentences answering for the entry the question names come first
(``scoring.entry_sentences``). A
follow-up may answer with a sentence its previous answer quoted: readers ask after the
condition or the second half of what they were just shown ("does it always do that?",
"if both exist, which wins?"); barring those sentences lost 22 of the ten never-seen DEV
sets' 175 covered follow-ups and gained none
(``benchmarks/results/follow-up-repeat-DEV-2026-12-06.md``). Where the ``read_on`` head
says so, the best sentence goes with what it leads into rather than with its pair
(``read_on``, ``direct_choice``; ``benchmarks/results/how-answers-DEV-2026-12-07.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from askalong.answer.base import NOT_COVERED, unit_quote
from askalong.answer.extractive.across_rows import across_features
from askalong.answer.extractive.boilerplate import asks, number_only
from askalong.answer.extractive.candidates import Candidate, candidates, cross_lingual
from askalong.answer.extractive.direct import NOT_ANSWERS, joined
from askalong.answer.extractive.direct_choice import (
    direct_answer,
    neighbours,
    place,
    with_blocks,
)
from askalong.answer.extractive.passage_choice import PassageChoice, choose_passages
from askalong.answer.extractive.scoring import entry_sentences
from askalong.answer.extractive.select import ExtractiveResult
from askalong.answer.extractive.sentence_rows import candidate_rows, kept_candidates, rank_rows
from askalong.answer.extractive.thread_position import THREAD_WEIGHTS, thread_bonus
from askalong.answer.scorer.features import answerable_features
from askalong.answer.scorer.model import Scorer, shipped_scorer
from askalong.answer.scorer.refusal_row import UNSEARCHED, evidence_gaps, refusal_features
from askalong.answer.shape import first_line
from askalong.context.units import ContextUnit
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from askalong.types import BlockSpan, Hit

MAX_QUOTES = 4
# A further quote needs this share of the best sentence's softmax weight: at 0.03 rather
# than 0.3 a quote holds the gold for 415 of 645 never-seen dev questions rather than 375
# (3.6 quotes an answer against 2.4; the rules quote 3-4), CMRC / DRCD / HotpotQA dev
# evidence hit +1 to +9 points (benchmarks/results/learned-quotes-DEV-2026-12-06.md)
QUOTE_SHARE = 0.03
NOTHING_ANSWERS = {
    "en": "No sentence in the documents searched answers the question.",
    "zh": "所给文档中没有能回答这个问题的句子。",
    "zh-Hant": "所給文件中沒有能回答這個問題的句子。",
}


@dataclass(frozen=True)
class Weighed:
    """What the learned scorer made of a question's evidence: the chosen units, their
    candidate sentences and the order of the answer's choice (the rank head's scores; the
    across head's when the evidence is in the other language: ``_across_order``),
    the answerable head's probability, the refusal head's row (``REFUSAL``; None without
    candidates) and probability (None without a head or a row), and whether the evidence
    is in the other language."""

    units: Sequence[ContextUnit]
    found: list[Candidate]
    ranks: np.ndarray
    answerable: float
    row: np.ndarray | None
    covered: float | None
    across: bool
    weak: bool  # the passage model's refusal (its shipped thresholds: never)


def chosen(
    question: QuestionReading, units: Sequence[ContextUnit], hits: Sequence[Hit]
) -> tuple[PassageChoice, list[Candidate], bool]:
    """The passages and candidate sentences the scorer reads (training's groups too), and
    whether the evidence is in the other language. Across languages (a Chinese question
    over an English document, or the reverse) the passage choice and the candidates' cap
    both rank by the question's words, which the evidence does not share: every unit and
    sentence go to the scorer, whose e5 cosines relate them (as the rules' ``across``
    does). On the eight never-seen DEV sets' 127 cross-lingual questions: 35 -> 43
    answered, covered refused 9 -> 5 (the rules 44, 15)."""
    everything = [c for c in candidates(units) if c.text.strip()]
    if cross_lingual(question.language, everything):
        return PassageChoice(tuple(units), None), everything, True
    choice = choose_passages(question.text, question.language, units, hits)
    found = [c for c in candidates(choice.units) if c.text.strip()]
    return choice, kept_candidates(question.text, found), False


def weighed(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    scorer: Scorer,
    embedder: Embedder | None = None,
    hits: Sequence[Hit] = (),
) -> Weighed:
    """Score ``question``'s candidate sentences in the best passages of ``units``
    (``passage_choice``) with every head (``training/refusal.py`` reads the same)."""
    choice, found, across = chosen(question, units, hits)
    rows = candidate_rows(question.text, found, embedder)
    embedded = embedder is not None
    scores = scorer.sentence_scores(rows, embedded)
    answerable = scorer.answerable_probability(rows, scores, embedded) if found else 0.0
    entries = rank_rows(question, found, embedder)
    ranks = scorer.rank_scores(rows, scores, entries, embedded)
    row = covered = None
    if found:
        row = refusal_features(
            answerable_features(rows, scores),
            answerable,
            ranks,
            _searched(choice, hits),
            across,
            question.language == "zh",
            evidence_gaps(question.text, [u.text for u in units]),
            question.form.answer_type,
        )
        covered = scorer.covered_probability(row, embedded)
    weak = choice.weak and not across  # the passage model saw no cross-lingual question
    if across and found:
        inputs = np.hstack([rows, scores[:, None], entries])
        ranks = _across_order(question, found, inputs, ranks, scorer, embedded)
    return Weighed(choice.units, found, ranks, answerable, row, covered, across, weak)


def _across_order(
    question: QuestionReading,
    found: list[Candidate],
    inputs: np.ndarray,
    ranks: np.ndarray,
    scorer: Scorer,
    embedded: bool,
) -> np.ndarray:
    """The across head's scores of a question over evidence in the other language (the
    rank head's ``ranks`` without one). The rank head learned from same-language groups,
    where the question's words in a sentence say most; across languages the cosines and
    the names both languages write alike say what there is to say (the refusal keeps
    reading the rank head's scores)."""
    rows = functools.partial(across_features, question, found)  # made only when read
    return scorer.across_scores(inputs, ranks, rows, embedded)


def learned_answer(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    *,
    embedder: Embedder | None = None,
    scorer: Scorer | None = None,
    hits: Sequence[Hit] = (),
    said: str = "",
    thread: Mapping[str, float] = THREAD_WEIGHTS,
) -> ExtractiveResult:
    """Answer ``question`` with the best-scored sentence of the best passages of ``units``
    (``passage_choice``; with a close runner-up, else its better-scored neighbour, when the
    two fit the answer's shape: ``_direct``; or with what it leads into where the read-on
    head says so: ``direct_answer``), or ``not_covered`` when the refusal head (else the
    answerable head) says so. A follow-up's previous answer (``said``) moves the sentences
    of its passage by their place against it (``thread_position``)."""
    scorer = scorer or shipped_scorer()
    w = weighed(question, units, scorer, embedder, hits)
    bonus = thread_bonus(w.found, said, thread)
    if bonus.any():
        w = replace(w, ranks=w.ranks + bonus)
    return answered(question, w, scorer, embedder is not None)


def answered(
    question: QuestionReading, w: Weighed, scorer: Scorer, embedded: bool
) -> ExtractiveResult:
    """The answer ``learned_answer`` gives from the evidence ``w`` weighed."""
    language = question.language
    found, scores = w.found, w.ranks
    order = answer_order(question, w)
    probability = w.answerable if w.covered is None else w.covered
    if not order or w.weak or _refused(w, scorer, language, embedded):
        note = NOTHING_ANSWERS[question.wording]
        return ExtractiveResult(
            "not_covered", NOT_COVERED[question.wording], (), note, probability, language
        )
    direct, opened = with_blocks(w.units, direct_answer(question, w, order, scorer, embedded))
    shown = {place(c) for c in direct}
    further = [found[k] for k in _close(scores, order) if place(found[k]) not in shown]
    quoted = [*direct, *further[: max(MAX_QUOTES - len(direct), 0)]]
    quotes = tuple(
        unit_quote(n, w.units[c.unit], _span(c), c.text) for n, c in enumerate(quoted, start=1)
    )
    cited = [
        f"{first_line(q.text) if k in opened else q.text} [{q.number}]"
        for k, q in enumerate(quotes[: len(direct)])
    ]
    answer = joined(cited, language)
    around = [k for k in neighbours(found, order[0]) if place(found[k]) not in shown]
    explanation = joined([found[k].text for k in around], language)
    return ExtractiveResult("answered", answer, quotes, explanation, probability, language)


def answer_order(question: QuestionReading, w: Weighed) -> list[int]:
    """The candidates that may answer, best first (the entry's own sentences first)."""
    ranked = [k for k in np.argsort(-w.ranks) if _may_answer(w.found[k])]
    return _entry_first(question, w.found, ranked)


def _refused(w: Weighed, scorer: Scorer, language: str, embedded: bool) -> bool:
    """Below the refusal head's threshold; across languages, or without a refusal head,
    below the answerable head's (the refusal head saw 84 cross-lingual questions of
    1,669 and refused none of the 9 uncovered among them: the cross-lingual thresholds
    keep such questions answered)."""
    if w.covered is not None and not w.across:
        return w.covered < scorer.refusal_threshold(embedded)
    return w.answerable < scorer.threshold(language, embedded, w.across)


def _searched(choice: PassageChoice, hits: Sequence[Hit]) -> tuple[float, ...]:
    """What the hybrid search knew of the best chosen retrieved passage: the passage
    model's probability and its best hit's fused, keyword and vector scores."""
    best = next((u for u in choice.units if u.origin == "retrieved"), None)
    mine = [h for h in hits if best and h.chunk_id in best.chunk_ids and h.mode == "hybrid"]
    if choice.probability is None or not mine:
        return UNSEARCHED
    top = max(mine, key=lambda h: h.score)
    return (choice.probability, top.score, top.keyword_score or 0.0, top.vector_score or 0.0)


def _entry_first(question: QuestionReading, found: list[Candidate], order: list[int]) -> list[int]:
    """``order`` with the sentences that answer for the entry the question names first
    when it asks what a thing is (its opening, a command's purpose or its Description's
    first sentence) or a value of it (the sentence stating it: ``scoring.entry_sentences``).
    The rank head sees entries too (``features.ENTRY``) but weighs them by readers' sets,
    where few questions ask a manual's definition: on the chat benchmark's PostgreSQL
    manual it alone answered 36 parts of 88, with this 41; applied to every question
    instead it answered 46 there but cost 12 of the never-seen DEV sets' 796 (385 -> 373;
    benchmarks/results/entry-rank-DEV-2026-12-06.md)."""
    if not question.asked_attributes and question.form.answer_type != "definition":
        return order
    shares = entry_sentences(question, [found[k] for k in order], question.subject)
    first = [k for k, (_, share) in zip(order, shares, strict=True) if share >= 1.0]
    chosen = set(first)
    return first + [k for k in order if k not in chosen]


def _may_answer(candidate: Candidate) -> bool:
    """Headings and the like, questions and bare section numbers never answer."""
    text = candidate.text
    return candidate.kind not in NOT_ANSWERS and not asks(text) and not number_only(text)


def _close(scores: np.ndarray, order: list[int]) -> list[int]:
    """The sentences close to the best by the model's softmax weight, best first: the
    further quotes, once the direct answer's are set aside."""
    weight = np.exp(scores - scores.max())
    return [k for k in order if weight[k] >= QUOTE_SHARE * weight[order[0]]]


def _span(c: Candidate) -> BlockSpan:
    return BlockSpan(c.block_id, c.start, c.end)
