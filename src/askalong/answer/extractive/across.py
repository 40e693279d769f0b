"""Answering across languages (pure): a Chinese question over an English paper, an
English one over a Chinese document.

Question and evidence then share next to no words, so the overlap part of a sentence's
score is noise (a stray Latin name, a citation); what relates them is the multilingual
embedder. ``crosses`` says whether the evidence is mostly in the other language, counting
sentences rather than characters: a Chinese paper's English abstract or a Chinese
manual's Latin command names do not make it English, and the first sentences alone
(``candidates.cross_lingual`` reads 40) are often the title page. ``rescored`` then gives
every candidate its question-sentence similarity (all of them, not the lexical top: the
lexical ranking means nothing here) and ranks by it; sentence vectors come from the
answerer's cache, so a follow-up over the same evidence embeds nothing again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.scoring import Scored, Weights
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from askalong.text.patterns import lazy
from askalong.text.scripts import detect_language

# A sentence is counted in its language when it has at least this many characters.
MIN_SENTENCE_CHARS = 12
# Share of the counted sentences in the other language that makes the evidence "across".
ACROSS_SHARE = 0.6
MAX_EMBEDDED = 160  # prose sentences embedded at most (ten retrieved chunks hold ~150)
# Across languages a bibliography entry or a page's footnote lands closest to almost any
# question (short, dense with names: "… Ad Hoc Network Journal, vol. 3, pp. 325-349"):
# such lines are never the answer there, nor are fragments.
_NOT_PROSE = frozenset({"footnote", "header", "footer", "caption", "formula", "heading"})
_BIBLIOGRAPHIC = lazy(
    r"\b(?:vol|pp|no)\.\s*\d|\bProc(?:eedings|\.)|\bJournal\b|\bchapter\b|https?://"
    r"|^\s*\[\d+\]|\bet al\.|\bIn [A-Z][\w.]+ [A-Z]\.",
)
MIN_PROSE_CHARS = {"zh": 8, "en": 24}


def crosses(question: QuestionReading, found: Sequence[Candidate]) -> bool:
    """Whether most of the evidence's sentences are in the other language."""
    languages = [
        detect_language(c.text) for c in found if len(c.text.strip()) >= MIN_SENTENCE_CHARS
    ]
    counted = [lang for lang in languages if lang in ("zh", "en")]
    if not counted:
        return False
    other = sum(lang != question.language for lang in counted)
    return other / len(counted) >= ACROSS_SHARE


def rescored(
    question: QuestionReading, scored: Sequence[Scored], embedder: Embedder, weights: Weights
) -> list[Scored]:
    """``scored`` ranked by similarity to the question: every candidate's rescaled cosine
    is its relevance and its evidence; the origin and drift parts of its old score stay
    (the anchor still breaks ties). Only prose is embedded (``is_prose``, at most
    ``MAX_EMBEDDED`` sentences); the rest keeps no similarity and so cannot answer."""
    if not scored:
        return []
    chosen = [k for k, s in enumerate(scored) if is_prose(s.candidate)][:MAX_EMBEDDED]
    similarities = [0.0] * len(scored)
    if chosen:
        query = embedder.embed_query(question.text)
        cosines = embedder.embed_passages([scored[k].candidate.text for k in chosen]) @ query
        span = weights.similarity_high - weights.similarity_low
        scaled = np.clip((cosines - weights.similarity_low) / span, 0.0, 1.0)
        for k, value in zip(chosen, scaled, strict=True):
            similarities[k] = float(value)
    out = []
    for k, item in enumerate(scored):
        similarity = similarities[k]
        bonus = item.score - item.relevance  # origin, drift and cues, as scored
        relevance = weights.similarity * similarity
        out.append(
            replace(
                item,
                evidence=relevance,
                score=relevance + bonus,
                relevance=relevance,
                similarity=similarity,
            )
        )
    return out


def is_prose(candidate: Candidate) -> bool:
    """A sentence of running text: no heading, footnote or caption, no bibliography
    entry, not a fragment."""
    if candidate.kind in _NOT_PROSE or _BIBLIOGRAPHIC.search(candidate.text):
        return False
    size = MIN_PROSE_CHARS["zh" if detect_language(candidate.text) == "zh" else "en"]
    return len(candidate.text.strip()) >= size
