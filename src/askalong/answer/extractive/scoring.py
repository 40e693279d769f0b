"""Scoring the candidate sentences of the offline answerer (see ``extractive``): what each
sentence is, how much of the question it covers (its evidence), and how it ranks."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from askalong.answer.extractive.candidates import Candidate, candidates, cross_lingual
from askalong.answer.extractive.cues import (
    answer_fit,
    continues,
    cue_score,
    opens_with_subject,
)
from askalong.answer.extractive.entries import (
    describes,
    entry_sentence,
    names_another,
    names_entry,
)
from askalong.context.units import ContextUnit, Drift
from askalong.providers.base import Embedder
from askalong.question.form import GENERIC_TERMS
from askalong.question.reading import QuestionReading
from askalong.text.tokens import BIGRAM, terms_of
from askalong.types import Intent


@dataclass(frozen=True)
class Weights:
    """How the candidate score is mixed, and the evidence threshold (tuned on XQuAD/CMRC)."""

    overlap: float = 1.0
    similarity: float = 1.0
    cue: float = 0.25
    fit: float = 0.3  # the sentence has the shape of the answer type (a number, a cause …)
    novelty: float = 0.3  # it adds content terms beyond the question's own ...
    novel_full: int = 3  # ... this many new terms count fully
    subject: float = 0.3  # it opens with what the question names and says what it does
    entry: float = 0.5  # it opens the entry the question names, or states its asked attribute
    thread: float = 0.1  # a follow-up's sentence holding what the previous answer named ...
    thread_full: int = 2  # ... this many of its terms (beyond the question's) count fully
    generic: float = 0.3  # weight of a question's words outside its focus ("use", "paper")
    origin: Mapping[str, float] | None = None  # None: ORIGIN_BONUS
    weak_drift: float = 0.15
    far_drift: float = 0.1
    carry: float = 0.3  # share of the previous sentence's overlap a sentence inherits ...
    carry_anaphor: float = 0.6  # ... or when it plainly continues it
    carry_tie: float = 0.2  # and a little of it on top, so context breaks ties
    follow_up: float = 0.4  # weight of the previous question's / the anchor's terms ...
    follow_up_cap: float = 0.15  # ... whose share may add at most this to a real question's
    rank: float = 0.1  # the first unit's bonus, falling linearly to 0 ...
    rank_span: int = 10  # ... over this many units (the search's order matters)
    embed_top: int = 6  # only the lexically best sentences are embedded (0: all) ...
    embed_cross: int = 48  # ... but across languages (no shared words) the first this many
    similarity_low: float = 0.78  # cosine mapped to 0 ...
    similarity_high: float = 0.9  # ... and to 1
    threshold: float = 0.23  # evidence below this -> not_covered (English question) ...
    threshold_zh: float = 0.14  # ... (Chinese: more terms, as words and character pairs)
    threshold_embedded: float = 0.5  # with the similarity added (English) ...
    threshold_embedded_zh: float = 0.75  # ... (Chinese: its cosines run higher)
    threshold_cross: float = 0.35  # question and evidence in different languages
    quote_ratio: float = 0.3  # further quotes need this share of the best score
    max_quotes: int = 4

    def threshold_for(self, language: str, *, embedded: bool, cross: bool = False) -> float:
        if embedded and cross:
            return self.threshold_cross
        if embedded:
            return self.threshold_embedded_zh if language == "zh" else self.threshold_embedded
        return self.threshold_zh if language == "zh" else self.threshold


ORIGIN_BONUS: Mapping[str, float] = {"anchor": 0.15, "crossref": 0.08, "retrieved": 0.0}


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    evidence: float  # how much of the question it covers (+ similarity): the threshold's
    score: float  # rarity-weighted overlap (+ similarity) + cues + origin - drift: the rank
    relevance: float = 0.0  # the score's overlap (+ similarity) part, without any bonus
    similarity: float = 0.0  # the rescaled question-sentence cosine (0 without embedder)
    terms: frozenset[str] = frozenset()  # ``terms_of`` the sentence


def score_candidates(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    *,
    intent: Intent = "ask",
    embedder: Embedder | None = None,
    previous_question: str | None = None,
    thread_answer: str | None = None,
    weights: Weights | None = None,
) -> list[Scored]:
    """Every candidate sentence with its evidence and total score; ``thread_answer`` (a
    follow-up's previous answer) breaks ties between sentences that cover the question
    alike (``_thread_tie``)."""
    weights = weights or Weights()
    found = candidates(units)
    if not found:
        return []
    # a sentence of the entry the question names counts the entry's title as its words
    subject = question.subject
    entry = (
        entry_sentences(question, found, subject)
        if intent == "ask"
        else [(frozenset[str](), 0.0)] * len(found)
    )
    sentence_terms = [terms_of(c.text) | entry[k][0] for k, c in enumerate(found)]
    query = _query(question, units, previous_question, weights)
    overlap = _carried(found, _relevance(query, sentence_terms), weights)
    answers = [
        _answer_bonus(question, c.text, sentence_terms[k], weights, subject)
        + weights.entry * entry[k][1]
        if intent == "ask"
        else 0.0
        for k, c in enumerate(found)
    ]
    ranks = _rank_bonus(units, weights)
    # what is embedded is chosen with the answer's shape too: the sentence naming the means
    # often shares fewer of the question's words than the one restating it
    lexical = [
        overlap[k] * (1 + answers[k]) + _origin_bonus(c, weights) + ranks[c.unit]
        for k, c in enumerate(found)
    ]
    ties = _thread_tie(question, thread_answer, sentence_terms, weights)
    top = weights.embed_cross if cross_lingual(question.language, found) else weights.embed_top
    similarity = _similarities(query.text, found, embedder, top, weights, lexical)
    out = []
    for k, candidate in enumerate(found):
        terms = sentence_terms[k]
        relevance = weights.overlap * overlap[k] + weights.similarity * similarity[k]
        evidence = _coverage(query.evidence, terms) + weights.similarity * similarity[k]
        bonus = weights.cue * cue_score(intent, candidate.text) * (0.5 + overlap[k])
        bonus += answers[k] * relevance + (
            ranks[candidate.unit] + ties[k] if relevance > 0 else 0.0
        )
        bonus += _origin_bonus(candidate, weights) - _drift_penalty(candidate.drift, weights)
        out.append(
            Scored(
                candidate, evidence, relevance + bonus, relevance, similarity[k], frozenset(terms)
            )
        )
    return out


@dataclass(frozen=True)
class _Query:
    """What a sentence is scored against.

    ``weights``: the ranking terms, the question's (1.0) and, at ``follow_up``, the
    previous question's and the anchor selection's; ``own`` are the question's. Those
    secondary terms may add at most ``cap`` to a sentence's share (a real question must
    dominate; a question about the selection is uncapped). ``evidence``: the terms the
    evidence threshold is measured on, the question's own, or the selection's when the
    question names nothing beyond "this" (then ``text``, what the embedder compares
    sentences with, is the selection too).
    """

    weights: Mapping[str, float]
    own: frozenset[str]
    evidence: frozenset[str]
    cap: float
    text: str


def _query(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    previous_question: str | None,
    weights: Weights,
) -> _Query:
    own = question.match_terms
    selection = "\n".join(u.cited_text() for u in units if u.origin == "anchor")
    selected = terms_of(selection) if selection else set()
    focus = question.form.focus_terms
    # the focus decides; "use", "paper" and the like only break ties
    ranking = {t: weights.generic if _generic(t, focus) else 1.0 for t in own}
    secondary = (terms_of(previous_question) if previous_question else set()) | selected
    for term in secondary - own:
        ranking[term] = weights.follow_up
    if question.about_selection:
        text = selection if selected else question.text
        return _Query(ranking, own, frozenset(selected or own), 1.0, text)
    return _Query(ranking, own, own, weights.follow_up_cap, question.text)


def _thread_tie(
    question: QuestionReading,
    thread_answer: str | None,
    sentence_terms: Sequence[set[str]],
    weights: Weights,
) -> list[float]:
    """Each sentence's share of the previous answer's terms beyond the question's (at most
    ``thread_full`` count), times ``thread``: when every sentence covers "What does it
    measure?" alike, the one about what the answer before named ("MAUVE …") wins. The
    previous question's terms are in the overlap already, capped below the question's."""
    if not thread_answer:
        return [0.0] * len(sentence_terms)
    named = terms_of(thread_answer) - question.match_terms - GENERIC_TERMS
    return [
        weights.thread * min(1.0, len(terms & named) / weights.thread_full)
        for terms in sentence_terms
    ]


def _generic(term: str, focus: frozenset[str]) -> bool:
    """A question word outside a (non-empty) focus; Chinese character pairs are never
    generic here (the focus is made of words, the pairs stand in for their compounds)."""
    return bool(focus) and term not in focus and not term.startswith(BIGRAM)


def _relevance(query: _Query, sentence_terms: list[set[str]]) -> list[float]:
    """Share of the query's weight found in each sentence, terms weighted by rarity among
    the candidates, the secondary terms' part capped: the ranking signal (0..1)."""
    idf = _idf(query.weights, sentence_terms)
    weight = {term: w * idf[term] for term, w in query.weights.items()}
    total = math.fsum(weight[t] for t in query.own) or math.fsum(weight.values()) or 1.0
    out = []
    for terms in sentence_terms:
        own = math.fsum(w for t, w in weight.items() if t in terms and t in query.own)
        other = math.fsum(w for t, w in weight.items() if t in terms and t not in query.own)
        out.append(min(1.0, own / total + min(other / total, query.cap)))
    return out


def _coverage(evidence: frozenset[str], terms: set[str]) -> float:
    """Share of the evidence terms in ``terms``, words and Chinese character pairs counted
    as two halves: the evidence signal, the same scale in both languages (0..1)."""
    shares = []
    for group in (False, True):
        mine = [t for t in evidence if t.startswith(BIGRAM) == group]
        if mine:
            shares.append(sum(t in terms for t in mine) / len(mine))
    return sum(shares) / len(shares) if shares else 0.0


def _carried(found: Sequence[Candidate], overlap: list[float], weights: Weights) -> list[float]:
    """A sentence continuing the one before it ("This is called X.", "也被称作……", the
    clause after a "；") is about what that one was about: it inherits part of its overlap."""
    out = list(overlap)
    for k in range(1, len(found)):
        before, here = found[k - 1], found[k]
        if (before.unit, before.piece, before.index + 1) != (here.unit, here.piece, here.index):
            continue
        share = weights.carry_anaphor if continues(before.text, here.text) else weights.carry
        out[k] = max(out[k], share * overlap[k - 1]) + weights.carry_tie * share * overlap[k - 1]
    return out


def _idf(query: Mapping[str, float], sentence_terms: list[set[str]]) -> dict[str, float]:
    """A smoothed IDF over the candidates, floored so a term found everywhere still counts."""
    df: Counter[str] = Counter()
    for terms in sentence_terms:
        df.update(t for t in query if t in terms)
    n = len(sentence_terms)
    return {t: max(0.3, math.log((n + 1) / (df[t] + 0.5))) / math.log(n + 2) for t in query}


def _answer_bonus(
    question: QuestionReading,
    sentence: str,
    terms: set[str],
    weights: Weights,
    subject: Sequence[str] = (),
) -> float:
    """What a sentence adds as an answer, as a share of its relevance: the answer type's
    shape (a number for how many, a cause for why …), its novelty, the content words it
    holds beyond the question's ("We call our model SPECTER" restates "What loss trains
    SPECTER?", the sentence naming the loss function adds the answer), and whether it
    states something of the question's subject (``cues.opens_with_subject``)."""
    fit = weights.fit * answer_fit(question.form, sentence, terms, question.terms)
    old = question.match_terms
    new = sum(
        1 for t in terms if not t.startswith(BIGRAM) and t not in old and t not in GENERIC_TERMS
    )
    # stating something of the subject counts only with something new said of it
    stated = weights.subject if new and opens_with_subject(sentence, subject) else 0.0
    return fit + weights.novelty * min(1.0, new / weights.novel_full) + stated


_NEGATED = re.compile(r"\bnon-\w+", re.IGNORECASE)


def entry_sentences(
    question: QuestionReading, found: Sequence[Candidate], subject: Sequence[str]
) -> list[tuple[frozenset[str], float]]:
    """Per candidate, the title terms of the entry the question names and the share of
    the ``entry`` bonus when the sentence answers for that entry (``entries``): a
    sentence stating the asked attribute, else the entry's opening in full and a later
    sentence opening with the subject ("HAVING eliminates group rows …") by half; a
    Description's first sentence opening with the subject in full; a sentence of another
    thing's entry ("wal_buffers" for "shared_buffers") loses as much."""
    asked = question.asked_attributes
    out: list[tuple[frozenset[str], float]] = []
    for candidate in found:
        named = names_entry(question, candidate.entry, subject)
        share = 0.0
        if named and asked:
            stated = _NEGATED.sub(" ", candidate.text)  # "non-default" states no default
            share = 1.0 if entry_sentence(terms_of(stated), asked) else 0.0
        elif named:
            share = 1.0 if candidate.opens else 0.0
            share = share or (0.5 if opens_with_subject(candidate.text, subject) else 0.0)
        elif not asked and candidate.opens and describes(candidate.entry):
            # the Description's first sentence, opening with the subject, opens its entry
            share = 1.0 if opens_with_subject(candidate.text, subject) else 0.0
        elif names_another(candidate.entry, subject):
            share = -1.0  # the entry of another thing only mentions the subject
        out.append((named, share) if share else (frozenset(), 0.0))
    return out


def _similarities(
    question: str,
    found: Sequence[Candidate],
    embedder: Embedder | None,
    embed_top: int,
    weights: Weights,
    lexical: Sequence[float],
) -> list[float]:
    """Question-sentence cosine rescaled to 0..1, for the ``embed_top`` sentences of the
    cheap lexical pre-ranking (the rest get 0): embedding every candidate of a 6,000
    character context took ~1 s on two loaded cores, the top 6 ~0.1 s, and on XQuAD
    (200 questions each) 6 did as well as 12: en 0.975 hit / 0.995 declined, zh 0.985 / 0.995."""
    out = [0.0] * len(found)
    if embedder is None or not found:
        return out
    top = sorted(range(len(found)), key=lambda k: -lexical[k])
    chosen = top[:embed_top] if embed_top > 0 else top
    query = embedder.embed_query(question)
    cosines = embedder.embed_passages([found[k].text for k in chosen]) @ query
    span = weights.similarity_high - weights.similarity_low
    scaled = np.clip((cosines - weights.similarity_low) / span, 0.0, 1.0)
    for k, value in zip(chosen, scaled, strict=True):
        out[k] = float(value)
    return out


def _rank_bonus(units: Sequence[ContextUnit], weights: Weights) -> list[float]:
    """Each unit's bonus for its place in the context's order (anchor, cross-references,
    then the search's ranking): the first ``rank``, falling linearly to 0 at the
    ``rank_span``-th; only for sentences related to the question at all."""
    return [weights.rank * max(0.0, 1.0 - k / weights.rank_span) for k in range(len(units))]


def _origin_bonus(candidate: Candidate, weights: Weights) -> float:
    bonus = (weights.origin or ORIGIN_BONUS).get(candidate.origin, 0.0)
    return bonus * (1.0 if candidate.cited else 0.5)


def _drift_penalty(drift: Drift | None, weights: Weights) -> float:
    if drift is None:
        return 0.0
    penalty = weights.weak_drift if drift.weak else 0.0
    if drift.distance in ("elsewhere", "other_document"):
        penalty += weights.far_drift
    return penalty
