"""The learned scorer's view of the candidate sentences: at most ``MAX_CANDIDATES`` of
them, and their ``features.sentence_features`` rows (with e5 cosines when an embedder is
given). Read by the learned answerer's sentence choice, and by the coverage experiment's
training groups (``training/coverage_pairs.py``), which must see what it sees."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.reader_cosine import reader_cosines
from askalong.answer.extractive.scoring import entry_sentences
from askalong.answer.scorer.features import Sentence, covered_share, idf_weights, sentence_features
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from askalong.text.tokens import terms_of

# The most lexically covered sentences kept for embedding and scoring: about what the
# model was fitted on (three paragraphs, ~25 sentences); embedding 80 cold made a
# question over a paper take 1.2 s (p50, refusal_dev) instead of 0.2 s.
MAX_CANDIDATES = 32


def kept_candidates(question: str, found: list[Candidate]) -> list[Candidate]:
    """At most ``MAX_CANDIDATES`` sentences: those holding the most of the question's
    terms (the lexical features only), in their reading order."""
    return [found[k] for k in kept_indices(question, as_sentences(found))]


def kept_indices(question: str, sentences: list[Sentence]) -> list[int]:
    """``kept_candidates``' choice over sentences as the features see them (training
    makes its groups with it)."""
    if len(sentences) <= MAX_CANDIDATES:
        return list(range(len(sentences)))
    coverage = sentence_features(question, sentences)[:, 0]
    return sorted(int(k) for k in np.argsort(-coverage, kind="stable")[:MAX_CANDIDATES])


def candidate_rows(question: str, found: list[Candidate], embedder: Embedder | None) -> np.ndarray:
    """The candidates' feature rows (the embedded columns 0 without an embedder)."""
    sentences = as_sentences(found)
    if embedder is None or not found:
        return sentence_features(question, sentences)
    vectors = embedder.embed_passages([c.text for c in found])
    return sentence_features(question, sentences, embedder.embed_query(question), vectors)


def as_sentences(found: Sequence[Candidate]) -> list[Sentence]:
    """The candidates as the features see them: a passage is one piece of one unit
    (a code block with the piece right above it: ``_homes``), numbered in the context's
    order (the anchor, then the search's ranking)."""
    homes = _homes(found)
    passages: dict[tuple[int, int], int] = {}
    out = []
    for c in found:
        home, offset = homes[(c.unit, c.piece)]
        passages.setdefault(home, len(passages))
        out.append(Sentence(passages[home], c.index + offset, c.text))
    return out


def _homes(found: Sequence[Candidate]) -> dict[tuple[int, int], tuple[tuple[int, int], int]]:
    """Each piece's passage (the piece it joins) and the offset of its sentence numbers
    there. A code block joins the piece right above it, whose sentences number on into
    the code's lines: its lead-in ("To list the files of a package, run"), or the
    heading that says what it does, is what relates a question to the code, and the
    features read a sentence's neighbours and passage (coverage and cosine windows). Read
    alone, a command shares no word with the question and the lead-in's passage lacks
    the command. Twelve DEV sets' 1,453 covered questions: 812 -> 820 answered, covered
    refused 41 -> 38; list items joined the same way lost 4
    (``benchmarks/results/list-candidates-DEV-2026-12-06.md``)."""
    homes: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
    last: dict[tuple[int, int], int] = {}  # a passage's last sentence number so far
    above: Candidate | None = None
    for c in found:
        piece = (c.unit, c.piece)
        if piece not in homes:
            homes[piece] = (piece, 0)
            if c.kind == "code" and above is not None and (above.unit, above.piece + 1) == piece:
                home = homes[(above.unit, above.piece)][0]
                homes[piece] = (home, last[home] + 1 - c.index)
        home, offset = homes[piece]
        last[home] = c.index + offset
        above = c
    return homes


def rank_rows(
    question: QuestionReading, found: Sequence[Candidate], embedder: Embedder | None
) -> np.ndarray:
    """The rank head's columns after the features and the sentence head's score:
    ``entry_rows`` and, with vectors (the embedded variant), the reader encoder's cosine
    (``reader_cosine``; 0 in the lexical variant, which has no rank head)."""
    texts = [c.text for c in found]
    if embedder is None:
        reader = np.zeros(len(texts))
    else:
        reader = reader_cosines(question.text, texts, embedder)
    return np.hstack([entry_rows(question, found), reader[:, None]]).astype(np.float32)


def entry_rows(question: QuestionReading, found: Sequence[Candidate]) -> np.ndarray:
    """The candidates' ``features.ENTRY`` rows: how the sentence answers for the entry
    the question names (``scoring.entry_sentences``: 1 its opening or the value asked,
    0.5 a later sentence opening with the subject, -1 another thing's entry), whether it
    opens its own entry, and how much of the question its section path holds (IDF-weighted
    among the candidates' paths). A manual states a thing under its own entry; the
    sentence features do not see where a sentence stands."""
    if not found:
        return np.zeros((0, 3), dtype=np.float32)
    shares = [share for _, share in entry_sentences(question, found, question.subject)]
    paths = [frozenset(terms_of(" ".join(c.entry))) for c in found]
    weight = idf_weights(set(terms_of(question.text)), paths)
    titled = [covered_share(weight, path) for path in paths]
    opens = [float(c.opens) for c in found]
    return np.array([shares, opens, titled], dtype=np.float32).T
