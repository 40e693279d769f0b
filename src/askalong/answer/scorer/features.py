"""Features of (question, candidate sentence) pairs, shared by training and run time (pure).

Only general facts about the pair: how close the question and the sentence, its
neighbours and its passage are in meaning (e5 cosines), how much of the question's terms
they hold (each term weighted by its rarity among the candidates: a smoothed IDF; words
and Chinese character pairs also counted apart), the sentence's length and place, its
passage's place in the search's order, and what it adds beyond the question's terms. No
cue phrase, no word list, nothing about any one document: what the weights learn from
public QA data must carry to documents nobody tuned on.

``training/prepare.py`` calls ``sentence_features`` on its pairs and
``answer/extractive/learned.py`` on the answerer's candidates: one definition, so the
model sees at run time exactly what it was fitted on.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from askalong.text.scripts import HAN_RE
from askalong.text.tokens import BIGRAM, key_terms, terms_of

# The columns, in order; the lexical model reads LEXICAL only (no embedder).
LEXICAL = (
    "coverage",
    "coverage_gap",
    "word_coverage",
    "pair_coverage",
    "coverage_before",
    "coverage_after",
    "coverage_window",
    "coverage_passage",
    "coverage_passage_gap",
    "coverage_rank",
    "character_share",
    "length",
    "short",
    "position",
    "first",
    "passage_rank",
    "new_terms",
    "new_share",
    "digit",
    "chinese",
)
EMBEDDED = (
    "cosine",
    "cosine_gap",
    "cosine_before",
    "cosine_after",
    "cosine_passage",
    "cosine_passage_gap",
    "cosine_rank",
    "cosine_passage_rank",
)
COLUMNS = LEXICAL + EMBEDDED
# Where a sentence stands in a manual's entries (``sentence_rows.entry_rows``): read by
# the rank head only, since the public QA paragraphs the sentence head learns from have none.
ENTRY = ("entry_share", "entry_opens", "title_coverage")
# What ties a sentence to a question in the other language besides the e5 and reader
# cosines (``across_rows``, read by the across head only): the IDF-weighted share of the
# question's Latin-script terms (names, numbers, code identifiers: the words a Chinese
# question shares with an English text) the sentence holds, and its neighbours with it;
# whether it is running prose (no heading, caption, bibliography entry or fragment); and
# whether it is written in the question's own language (a translated line of a mixed page);
# the IDF-weighted share of the question's words translated by the bilingual lexicon
# (``text/lexicon``) it holds, and its neighbours with it.
ACROSS = (
    "anchor_share",
    "anchor_window",
    "prose",
    "own_language",
    "translated_share",
    "translated_window",
)
# Where a candidate stands relative to the reader's selection and whether it names its key
# terms (``selection_places``): read by the intent heads beside the rank head's score
PLACE = (
    "after_selection",
    "near_selection",
    "selection_section",
    "code_block",
    "selection_unit",
    "names_term",
    "near_naming",
)
INTENT_COLUMNS = ("rank_score", *PLACE)
# Choosing the read-on window (the best sentence and what it leads into) over the direct
# answer's pair (``extractive/read_on.py``): read by the ``read_on`` head only
READ_ON = (
    "best_announces",  # the best sentence ends with a colon
    "best_open",  # it ends without a full stop
    "next_announces",  # the sentence after it ends with a colon
    "next_open",
    "next_list",  # the next block's kind
    "next_code",
    "next_same_block",  # the next sentence is in the best one's block
    "window_length",  # sentences in the window (2 or 3)
    "other_before",  # where the direct answer's other sentence stands: before the best
    "other_elsewhere",  # elsewhere (a runner-up); neither: the best stands alone
    "holds_pair",  # the window keeps every sentence of the pair (it only adds)
    "method",  # the question asks how
    "reason",  # the question asks why
    "next_gap",  # the rank head's score of the next sentence less the best's
    "next_unranked",  # the next sentence was not among the ranked candidates
    "other_gap",  # the same for the other sentence (0 when alone)
    "best_size",  # share of the answer's length limit
    "next_size",
    "other_size",
    "next_terms",  # share of the question's terms in the window's added sentences
    "other_terms",  # share in the sentence the window drops
)
IDF_FLOOR = 0.3  # a question term found in every candidate still counts this much
NEW_TERMS_FULL = 8  # terms beyond the question's: this many count fully


@functools.lru_cache(maxsize=16384)
def sentence_terms(text: str) -> frozenset[str]:
    """``terms_of``, remembered: the same sentences meet many questions (follow-ups,
    training's pairs)."""
    return frozenset(terms_of(text))


@functools.lru_cache(maxsize=16384)
def _key_terms(text: str) -> frozenset[str]:
    return frozenset(key_terms(text))


@dataclass(frozen=True)
class Sentence:
    """One candidate: its passage's place in the search's order, its place in that
    passage, and its text."""

    passage: int
    index: int
    text: str


def sentence_features(
    question: str,
    sentences: Sequence[Sentence],
    question_vector: np.ndarray | None = None,
    sentence_vectors: np.ndarray | None = None,
) -> np.ndarray:
    """One row of ``COLUMNS`` per sentence (the embedded columns 0 without vectors);
    ``sentence_vectors``: one unit-length row per sentence, ``question_vector`` too."""
    if not sentences:
        return np.zeros((0, len(COLUMNS)), dtype=np.float32)
    lexical = _lexical(question, sentences)
    if question_vector is None or sentence_vectors is None:
        embedded = np.zeros((len(sentences), len(EMBEDDED)))
    else:
        embedded = _embedded(sentences, question_vector, sentence_vectors)
    return np.hstack([lexical, embedded]).astype(np.float32)


# ---------------------------------------------------------------------------- lexical


def _lexical(question: str, sentences: Sequence[Sentence]) -> np.ndarray:
    asked = set(terms_of(question))
    terms = [sentence_terms(s.text) for s in sentences]
    weight = idf_weights(asked, terms)
    words = {t: w for t, w in weight.items() if not t.startswith(BIGRAM)}
    pairs = {t: w for t, w in weight.items() if t.startswith(BIGRAM)}
    coverage = np.array([covered_share(weight, t) for t in terms])
    before, after = _neighbours(sentences, coverage)
    window = np.array([covered_share(weight, t) for t in _windows(sentences, terms)])
    passage = _per_passage(sentences, terms, weight)
    own = key_terms(question)
    new = [len(_key_terms(s.text) - own) for s in sentences]
    chars = _characters(question)
    count = Counter(s.passage for s in sentences)
    columns = [
        coverage,
        coverage - coverage.max(),
        np.array([covered_share(words, t) for t in terms]),
        np.array([covered_share(pairs, t) for t in terms]),
        before,
        after,
        window,
        passage,
        passage - passage.max(),
        _reciprocal_rank(coverage),
        np.array([_share(chars, _characters(s.text)) for s in sentences]),
        np.array([math.log1p(len(s.text)) / 6.0 for s in sentences]),
        np.array([float(len(s.text.strip()) < 20) for s in sentences]),
        np.array([s.index / max(1, count[s.passage] - 1) for s in sentences]),
        np.array([float(s.index == 0) for s in sentences]),
        np.array([1.0 / (1.0 + s.passage) for s in sentences]),
        np.array([min(1.0, n / NEW_TERMS_FULL) for n in new]),
        np.array(
            [n / max(1, len(_key_terms(s.text))) for n, s in zip(new, sentences, strict=True)]
        ),
        np.array([float(any(c.isdigit() for c in s.text)) for s in sentences]),
        np.full(len(sentences), float(HAN_RE.search(question) is not None)),
    ]
    return np.stack(columns, axis=1)


def idf_weights(asked: set[str], terms: Sequence[frozenset[str]]) -> dict[str, float]:
    """Each question term's smoothed IDF among the candidates (floored)."""
    n = len(terms)
    df = Counter(t for found in terms for t in asked & found)
    scale = math.log(n + 2)
    return {t: max(IDF_FLOOR, math.log((n + 1) / (df[t] + 0.5)) / scale) for t in asked}


def covered_share(weight: dict[str, float], terms: frozenset[str] | set[str]) -> float:
    """The IDF-weighted share of the question's terms held in ``terms`` (0..1). Summed
    exactly (``fsum``): the weights come in the question's set order, which changes with
    the process's hash seed, and a last-bit difference broke ties between sentences (the
    reciprocal rank) so one answer differed from run to run."""
    total = math.fsum(weight.values())
    return math.fsum(w for t, w in weight.items() if t in terms) / total if total else 0.0


def _neighbours(sentences: Sequence[Sentence], values: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each sentence's previous and next sentence's value in its passage (0: none)."""
    where = {(s.passage, s.index): k for k, s in enumerate(sentences)}
    out = []
    for step in (-1, 1):
        near = [where.get((s.passage, s.index + step)) for s in sentences]
        out.append(np.array([values[k] if k is not None else 0.0 for k in near]))
    return tuple(out)


def _windows(sentences: Sequence[Sentence], terms: Sequence[frozenset[str]]) -> list[set[str]]:
    """Each sentence's terms with its neighbours' in the same passage."""
    where = {(s.passage, s.index): k for k, s in enumerate(sentences)}
    out = []
    for s in sentences:
        near = (where.get((s.passage, s.index + step)) for step in (-1, 0, 1))
        out.append(set().union(*(terms[k] for k in near if k is not None)))
    return out


def _per_passage(
    sentences: Sequence[Sentence], terms: Sequence[frozenset[str]], weight: dict[str, float]
) -> np.ndarray:
    """The coverage of each sentence's whole passage."""
    joined: dict[int, set[str]] = {}
    for s, found in zip(sentences, terms, strict=True):
        joined.setdefault(s.passage, set()).update(found)
    covered = {p: covered_share(weight, found) for p, found in joined.items()}
    return np.array([covered[s.passage] for s in sentences])


def _reciprocal_rank(values: np.ndarray) -> np.ndarray:
    """1 / (1 + rank) of each value among all, the highest first (ties share a rank)."""
    ranks = np.array([(values > v).sum() for v in values])
    return 1.0 / (1.0 + ranks)


def _characters(text: str) -> set[str]:
    """The letters, digits and Han characters of ``text``, lower-cased."""
    return {c for c in text.lower() if c.isalnum()}


def _share(asked: set[str], found: set[str]) -> float:
    return len(asked & found) / len(asked) if asked else 0.0


# --------------------------------------------------------------------------- embedded


def _embedded(
    sentences: Sequence[Sentence], question: np.ndarray, vectors: np.ndarray
) -> np.ndarray:
    cosine = vectors @ question
    before, after = _neighbours(sentences, cosine)
    passage = _passage_cosines(sentences, question, vectors)
    ranks = {p: r for r, p in enumerate(sorted(set(passage), reverse=True))}
    columns = [
        cosine,
        cosine - cosine.max(),
        before,
        after,
        passage,
        passage - passage.max(),
        _reciprocal_rank(cosine),
        np.array([1.0 / (1.0 + ranks[v]) for v in passage]),
    ]
    return np.stack(columns, axis=1)


def _passage_cosines(
    sentences: Sequence[Sentence], question: np.ndarray, vectors: np.ndarray
) -> np.ndarray:
    """Question cosine of each sentence's passage, the passage vector being the unit-
    length mean of its sentences' (no second embedding of the whole passage)."""
    rows: dict[int, list[int]] = {}
    for k, s in enumerate(sentences):
        rows.setdefault(s.passage, []).append(k)
    cosines = {}
    for p, ks in rows.items():
        mean = vectors[ks].mean(axis=0)
        cosines[p] = float(mean @ question / (np.linalg.norm(mean) or 1.0))
    return np.array([cosines[s.passage] for s in sentences])


# ------------------------------------------------------------------------ answerability

ANSWERABLE = (
    "top_score",
    "margin",
    "top_coverage",
    "top_word_coverage",
    "top_pair_coverage",
    "top_window",
    "top_cosine",
    "top_cosine_passage",
    "best_coverage",
    "best_cosine",
    "chinese",
)
_AT = {name: k for k, name in enumerate(COLUMNS)}


def answerable_features(rows: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """One row of ``ANSWERABLE`` for a question over all its candidates: what the best
    scored sentence holds and how far ahead it is, and the best coverage and cosine
    anywhere (``rows``: ``sentence_features``; ``scores``: the sentence model's)."""
    if len(scores) == 0:
        return np.zeros(len(ANSWERABLE), dtype=np.float32)
    order = np.argsort(-scores)
    top = rows[order[0]]
    second = scores[order[1]] if len(scores) > 1 else scores[order[0]] - 4.0
    picked = [top[_AT[name]] for name in ("coverage", "word_coverage", "pair_coverage")]
    values = [
        scores[order[0]],
        scores[order[0]] - second,
        *picked,
        top[_AT["coverage_window"]],
        top[_AT["cosine"]],
        top[_AT["cosine_passage"]],
        rows[:, _AT["coverage"]].max(),
        rows[:, _AT["cosine"]].max(),
        top[_AT["chinese"]],
    ]
    return np.array(values, dtype=np.float32)
