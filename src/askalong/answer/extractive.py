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
``cues.about_selection``) is about the selection: its evidence is the selection's terms.
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

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from askalong.answer.base import BlockKey
from askalong.answer.cues import (
    about_selection,
    continues,
    cue_score,
    has_number,
    wants_number,
)
from askalong.context import ContextUnit, Drift, Origin, Piece, trimmed
from askalong.providers.base import Embedder
from askalong.text import CHINESE_STOP_WORDS, detect_language, key_terms, split_sentences
from askalong.types import AnswerStatus, Block, Intent, Quote

_HAN_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
BIGRAM = "\u2194"  # marks a character pair, so it never equals a segmenter token

NOT_COVERED = {
    "en": "The document does not cover this.",
    "zh": "文档中没有涉及这个问题。",
}


@dataclass(frozen=True)
class Weights:
    """How the candidate score is mixed, and the evidence threshold (tuned on XQuAD/CMRC)."""

    overlap: float = 1.0
    similarity: float = 1.0
    cue: float = 0.25
    number: float = 0.1
    origin: Mapping[str, float] | None = None  # None: ORIGIN_BONUS
    weak_drift: float = 0.15
    far_drift: float = 0.1
    carry: float = 0.3  # share of the previous sentence's overlap a sentence inherits ...
    carry_anaphor: float = 0.6  # ... or when it plainly continues it
    carry_tie: float = 0.2  # and a little of it on top, so context breaks ties
    follow_up: float = 0.4  # weight of the previous question's / the anchor's terms ...
    follow_up_cap: float = 0.15  # ... whose share may add at most this to a real question's
    embed_top: int = 6  # only the lexically best sentences are embedded (0: all)
    similarity_low: float = 0.78  # cosine mapped to 0 ...
    similarity_high: float = 0.9  # ... and to 1
    threshold: float = 0.23  # evidence below this -> not_covered (English question) ...
    threshold_zh: float = 0.14  # ... (Chinese: more terms, as words and character pairs)
    threshold_embedded: float = 0.5  # with the similarity added (English) ...
    threshold_embedded_zh: float = 0.75  # ... (Chinese: its cosines run higher)
    pair_ratio: float = 0.9  # a neighbour joins the direct answer at this share of the best
    quote_ratio: float = 0.3  # further quotes need this share of the best score
    max_quotes: int = 4

    def threshold_for(self, language: str, *, embedded: bool) -> float:
        if embedded:
            return self.threshold_embedded_zh if language == "zh" else self.threshold_embedded
        return self.threshold_zh if language == "zh" else self.threshold


ORIGIN_BONUS: Mapping[str, float] = {"anchor": 0.15, "crossref": 0.08, "retrieved": 0.0}


@dataclass(frozen=True)
class Candidate:
    """One sentence of one context unit, with its exact place in its block."""

    unit: int  # index in the units given
    piece: int  # index of the unit's piece (block span)
    index: int  # sentence number within the piece
    block_id: str
    start: int
    end: int
    text: str
    origin: Origin
    drift: Drift | None
    cited: bool  # inside the unit's cited spans (the hit, the selection)


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    evidence: float  # how much of the question it covers (+ similarity): the threshold's
    score: float  # rarity-weighted overlap (+ similarity) + cues + origin - drift: the rank
    relevance: float = 0.0  # the score's overlap (+ similarity) part, without any bonus


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
    question: str,
    units: Sequence[ContextUnit],
    blocks: Mapping[BlockKey, Block],
    *,
    intent: Intent = "ask",
    embedder: Embedder | None = None,
    previous_question: str | None = None,
    previous_answer: str | None = None,
    weights: Weights | None = None,
) -> ExtractiveResult:
    """Answer ``question`` from ``units`` by selecting and quoting their sentences;
    ``blocks`` (keyed by document id and block id) give each quote its page and section.

    Only a sentence whose own evidence passes the threshold can be the answer: ranking
    bonuses (the anchor's origin, cues, the previous question) only order those. A
    follow-up whose answer would repeat ``previous_answer`` gets the next-best distinct
    evidence, or ``not_covered`` when there is none."""
    weights = weights or Weights()
    language = "zh" if detect_language(question) == "zh" else "en"
    scored = score_candidates(
        question,
        units,
        intent=intent,
        embedder=embedder,
        previous_question=previous_question,
        weights=weights,
    )
    threshold = weights.threshold_for(language, embedded=embedder is not None)
    eligible = _eligible(scored, threshold)
    best = _best(eligible, previous_answer)
    if best is None:
        top = max((s.evidence for s in scored), default=0.0)
        return ExtractiveResult("not_covered", NOT_COVERED[language], (), "", top, language)
    fresh = [s for s in scored if not previous_answer or s.candidate.text not in previous_answer]
    return _answer(fresh, best, blocks, units, weights, language)


def _eligible(scored: list[Scored], threshold: float) -> list[Scored]:
    """The sentences that may answer: those whose evidence passes the threshold and their
    neighbours in the same block (an example or a definition often follows the sentence
    that names the topic); never a sentence that has only a ranking bonus."""
    passing = {_place(s.candidate) for s in scored if s.evidence >= threshold}
    near = {(u, p, i + step) for u, p, i in passing for step in (-1, 1)}
    return [
        s
        for s in scored
        if _place(s.candidate) in passing or (_place(s.candidate) in near and s.relevance > 0)
    ]


def _place(candidate: Candidate) -> tuple[int, int, int]:
    return candidate.unit, candidate.piece, candidate.index


def _best(eligible: list[Scored], previous_answer: str | None) -> Scored | None:
    """The best eligible sentence; when the previous turn already answered with it, the
    best one that is not in that answer (a follow-up must say something new)."""
    best = max(eligible, key=lambda s: s.score, default=None)
    if best is None or not previous_answer or best.candidate.text not in previous_answer:
        return best
    fresh = [s for s in eligible if s.candidate.text not in previous_answer]
    return max(fresh, key=lambda s: s.score, default=None)


# ------------------------------------------------------------------------------ scoring


def candidates(units: Sequence[ContextUnit]) -> list[Candidate]:
    """Every sentence of every unit (trimmed, never across blocks)."""
    out = []
    for u, unit in enumerate(units):
        for p, piece in enumerate(unit.pieces):
            for i, (start, end) in enumerate(split_sentences(piece.text)):
                sentence = trimmed(piece, start, end)
                if sentence is not None:
                    out.append(_candidate(unit, (u, p, i), sentence))
    return out


def _candidate(unit: ContextUnit, place: tuple[int, int, int], sentence: Piece) -> Candidate:
    span = sentence.span
    cited = any(
        c.block_id == span.block_id and c.start < span.end and span.start < c.end
        for c in unit.cited_spans
    )
    u, p, i = place
    return Candidate(
        u, p, i, span.block_id, span.start, span.end, sentence.text, unit.origin, unit.drift, cited
    )


def score_candidates(
    question: str,
    units: Sequence[ContextUnit],
    *,
    intent: Intent = "ask",
    embedder: Embedder | None = None,
    previous_question: str | None = None,
    weights: Weights | None = None,
) -> list[Scored]:
    """Every candidate sentence with its evidence and total score."""
    weights = weights or Weights()
    found = candidates(units)
    if not found:
        return []
    sentence_terms = [terms_of(c.text) for c in found]
    query = _query(question, units, previous_question, weights)
    overlap = _carried(found, _relevance(query, sentence_terms), weights)
    lexical = [overlap[k] + _origin_bonus(c, weights) for k, c in enumerate(found)]
    similarity = _similarities(query.text, found, embedder, weights, lexical)
    numeric = wants_number(question)
    out = []
    for k, candidate in enumerate(found):
        relevance = weights.overlap * overlap[k] + weights.similarity * similarity[k]
        evidence = _coverage(query.evidence, sentence_terms[k]) + weights.similarity * similarity[k]
        bonus = weights.cue * cue_score(intent, candidate.text) * (0.5 + overlap[k])
        if numeric and has_number(candidate.text):
            bonus += weights.number * overlap[k]
        bonus += _origin_bonus(candidate, weights) - _drift_penalty(candidate.drift, weights)
        out.append(Scored(candidate, evidence, relevance + bonus, relevance))
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
    question: str, units: Sequence[ContextUnit], previous_question: str | None, weights: Weights
) -> _Query:
    own = terms_of(question)
    selection = "\n".join(u.cited_text() for u in units if u.origin == "anchor")
    selected = terms_of(selection) if selection else set()
    ranking = dict.fromkeys(own, 1.0)
    secondary = (terms_of(previous_question) if previous_question else set()) | selected
    for term in secondary - own:
        ranking[term] = weights.follow_up
    if about_selection(question):
        text = selection if selected else question
        return _Query(ranking, frozenset(own), frozenset(selected or own), 1.0, text)
    return _Query(ranking, frozenset(own), frozenset(own), weights.follow_up_cap, question)


def _relevance(query: _Query, sentence_terms: list[set[str]]) -> list[float]:
    """Share of the query's weight found in each sentence, terms weighted by rarity among
    the candidates, the secondary terms' part capped: the ranking signal (0..1)."""
    idf = _idf(query.weights, sentence_terms)
    weight = {term: w * idf[term] for term, w in query.weights.items()}
    total = sum(weight[t] for t in query.own) or sum(weight.values()) or 1.0
    out = []
    for terms in sentence_terms:
        own = sum(w for t, w in weight.items() if t in terms and t in query.own)
        other = sum(w for t, w in weight.items() if t in terms and t not in query.own)
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


def terms_of(text: str) -> set[str]:
    """Key terms, plus the character pairs of Chinese runs: the segmenter may cut a
    question and its answer sentence differently ("拔除插头测试" / "插头 测试")."""
    terms = key_terms(text)
    for run in _HAN_RUN.findall(text):
        pairs = (run[i : i + 2] for i in range(len(run) - 1))
        terms.update(BIGRAM + pair for pair in pairs if pair not in CHINESE_STOP_WORDS)
    return terms


def _idf(query: Mapping[str, float], sentence_terms: list[set[str]]) -> dict[str, float]:
    """A smoothed IDF over the candidates, floored so a term found everywhere still counts."""
    df: Counter[str] = Counter()
    for terms in sentence_terms:
        df.update(t for t in query if t in terms)
    n = len(sentence_terms)
    return {t: max(0.3, math.log((n + 1) / (df[t] + 0.5))) / math.log(n + 2) for t in query}


def _similarities(
    question: str,
    found: Sequence[Candidate],
    embedder: Embedder | None,
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
    chosen = top[: weights.embed_top] if weights.embed_top > 0 else top
    query = embedder.embed_query(question)
    cosines = embedder.embed_passages([found[k].text for k in chosen]) @ query
    span = weights.similarity_high - weights.similarity_low
    scaled = np.clip((cosines - weights.similarity_low) / span, 0.0, 1.0)
    for k, value in zip(chosen, scaled, strict=True):
        out[k] = float(value)
    return out


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


# ------------------------------------------------------------------------------ answer


def _answer(
    scored: list[Scored],
    best: Scored,
    blocks: Mapping[BlockKey, Block],
    units: Sequence[ContextUnit],
    weights: Weights,
    language: str,
) -> ExtractiveResult:
    direct = _direct(scored, best, weights)
    quoted = _quoted(scored, direct, weights)
    quotes = tuple(_quote(n, s.candidate, units, blocks) for n, s in enumerate(quoted, start=1))
    glue = "" if language == "zh" else " "
    answer = glue.join(f"{q.text} [{q.number}]" for q in quotes[: len(direct)])
    explanation = _explanation(scored, best, quoted, language)
    return ExtractiveResult("answered", answer, quotes, explanation, best.evidence, language)


def _neighbour(scored: Sequence[Scored], of: Candidate, step: int) -> Scored | None:
    for item in scored:
        c = item.candidate
        if (c.unit, c.piece, c.index) == (of.unit, of.piece, of.index + step):
            return item
    return None


def _direct(scored: list[Scored], best: Scored, weights: Weights) -> list[Scored]:
    """The best sentence, and its neighbour when that one scores nearly as well."""
    pair = [s for s in (_neighbour(scored, best.candidate, d) for d in (-1, 1)) if s is not None]
    pair = [s for s in pair if s.score >= weights.pair_ratio * best.score and s.score > 0]
    if not pair:
        return [best]
    second = max(pair, key=lambda s: s.score)
    return sorted([best, second], key=lambda s: s.candidate.index)


def _quoted(scored: list[Scored], direct: list[Scored], weights: Weights) -> list[Scored]:
    """The direct answer's sentences, then the next best evidence sentences."""
    best = max(s.score for s in direct)
    rest = sorted((s for s in scored if s not in direct), key=lambda s: -s.score)
    room = max(weights.max_quotes - len(direct), 0)
    # a further quote must relate to the question, not only have an origin bonus
    extra = [s for s in rest if s.score >= weights.quote_ratio * best and s.relevance > 0]
    return [*direct, *extra[:room]]


def _quote(
    number: int, c: Candidate, units: Sequence[ContextUnit], blocks: Mapping[BlockKey, Block]
) -> Quote:
    unit = units[c.unit]
    block = blocks.get((unit.document_id, c.block_id))
    return Quote(
        number=number,
        document_id=unit.document_id,
        block_id=c.block_id,
        start=c.start,
        end=c.end,
        text=c.text,
        page=block.page if block is not None else unit.page_start,
        section_path=block.section_path if block is not None else unit.section_path,
    )


def _explanation(scored: list[Scored], best: Scored, quoted: list[Scored], language: str) -> str:
    """The best sentence's previous and next sentences, when not quoted already."""
    around = [_neighbour(scored, best.candidate, d) for d in (-1, 1)]
    texts = [s.candidate.text for s in around if s is not None and s not in quoted]
    return ("" if language == "zh" else " ").join(texts)
