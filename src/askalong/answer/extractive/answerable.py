"""Whether the evidence can answer the question at all (pure).

Same language: the **coverage model** (``answer/scorer/coverage.py``, issue 32), learned
from QA sets' questions over their own article with the answering sentence deleted,
reads what the sentence scorer computed over the candidates and refuses below its
language's threshold (chosen on the never-seen DEV sets); beside it, one check decides
whatever the model says: a *name* the question gives (a word written as one, a number of
three digits or more, a Chinese word the segmenter does not know) that no evidence
sentence holds (``names.missing_names``, ``unmatched_words``): "2003如何关闭445端口" over a
page on turning LivePhotos off. Code (most candidates are code blocks) is never refused
by the model: a question about code shares few prose words with it.

Across languages (a Chinese question over an English paper, ``across``) the model never
saw such a pair: the question's own-script words cannot be checked, only its words in the
evidence's script count (a name: "Kubernetes"), and a sentence close by vector
(``VECTOR_SUPPORT``) supports it (``Support.answerable``).

Whenever an answer is not covered, the explanation names the focus words that were not
found (or says that no sentence answers it), in the question's language.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.answer.extractive.names import missing_names
from askalong.answer.extractive.scoring import Scored
from askalong.answer.extractive.sentence_rows import candidate_rows, kept_candidates
from askalong.answer.scorer.coverage import CoverageModel, shipped_coverage_model
from askalong.answer.scorer.features import COLUMNS
from askalong.answer.scorer.model import Scorer, shipped_scorer
from askalong.providers.base import Embedder
from askalong.question.form import focus_found
from askalong.question.reading import QuestionReading
from askalong.question.traditional import plain
from askalong.text.tokens import CHINESE_STOP_WORDS, han_words, key_terms, search_normal, terms_of

# Refused by term only when none of the checkable focus is found: a stricter share (0.5)
# refused paraphrased XQuAD / CMRC questions (answered 0.99 -> 0.94 / 0.92, limit 300).
SUPPORTED_SHARE = 0.01  # share of the checkable focus terms the evidence must hold ...
# ... unless a sentence's rescaled similarity reaches this (Chinese cosines run higher:
# a Kubernetes question over the Java manual reached 0.83 on a sentence about HashMap)
VECTOR_SUPPORT = {"en": 0.8, "zh": 0.9}
# ... on the rules' rescaled similarity (cosine 0.78 -> 0, 0.9 -> 1, ``scoring.Weights``)
_COSINE_LOW, _COSINE_SPAN = 0.78, 0.12

# Words a paraphrase brings that no answer needs to repeat ("whose value types never
# change between iterations"): missing, they are not evidence that a detail is absent.
FUNCTION_WORDS = frozenset(
    key_terms(
        "whose never between before after about again also any each more most same some "
        "very only own just over under onto upon while during through across against "
        "always often usually ever still already yet whether either neither both all need needs"
    )
) | frozenset(["以后", "之后", "以前", "后面", "前面", "通常", "一般", "一共", "总共", "哪些地方"])
# Chinese question words the segmenter keeps whole ("怎么样", "什么样", "怎么写", "应该"):
# shared with an unrelated page ("海信电视怎么样" for "尘虱是怎么样产生的", "…应该怎么写"
# for a Go question over the Java manual), they support nothing.
QUESTION_WORDS = frozenset(
    [
        "怎么样",
        "怎么",
        "怎样",
        "什么样",
        "如何",
        "为什么",
        "多少",
        "怎么写",
        "怎么办",
        "是什么",
        "什么",
        "为何",
        "哪些",
        "哪个",
        "应该",
        "能否",
        "有没有",
        "是不是",
    ]
)
_HAN = re.compile("[\u4e00-\u9fff]")
_LATIN = re.compile("[A-Za-z]")
_WORD = re.compile(r"[A-Za-z][\w'’-]*|[\u4e00-\u9fff]+")


@dataclass(frozen=True)
class Support:
    """The focus terms found and missing (by term), whether a sentence is close to the
    question by vector, and the names the question gives that no sentence holds."""

    found: frozenset[str]
    missing: frozenset[str]
    by_vector: bool
    names_missing: frozenset[str] = frozenset()

    @property
    def answerable(self) -> bool:
        """Across languages: no name missing, and some focus found or a sentence close."""
        if self.names_missing:
            return False
        checked = len(self.found) + len(self.missing)
        if not checked or self.by_vector:
            return True
        return len(self.found) / checked >= SUPPORTED_SHARE


def focus_support(
    question: QuestionReading,
    scored: Sequence[Scored],
    *,
    cross: bool = False,
) -> Support:
    """How far ``scored`` (every candidate sentence) supports the question's focus;
    ``cross``: the evidence is in the other language (``across.crosses``)."""
    evidence = "\n".join(s.candidate.text for s in scored)
    terms: set[str] = set().union(*(s.terms for s in scored)) if scored else set()
    found, checkable = focus_found(question.form.focus_terms - QUESTION_WORDS, terms, evidence)
    language = "zh" if question.pairs else "en"  # any Chinese in it
    by_vector = any(s.similarity >= VECTOR_SUPPORT[language] for s in scored)
    missing = checkable - found
    names = absent_names(question, evidence, terms, cross=cross)
    if cross:  # the question's own-script words cannot be in the other language's
        # sentences (a stray one may be); a name in the evidence's script still counts
        own = _HAN if question.language == "zh" else _LATIN
        kept = frozenset(t for t in missing if not own.match(t))
        return Support(found, kept, by_vector, names_missing=names)
    return Support(found, missing - FUNCTION_WORDS, by_vector, names_missing=names)


def absent_names(
    question: QuestionReading, evidence: str, terms: Collection[str], *, cross: bool = False
) -> frozenset[str]:
    """The names the question gives (``names.missing_names``), its long numbers and its
    unknown Chinese words (``unmatched_words``) that ``evidence`` never holds."""
    names = missing_names(question.name_runs, evidence, terms)
    # both read as plain: 什麼 is a question word, not an unknown noun the evidence must hold
    unknown = unmatched_words(question.plain, plain(evidence), chinese=not cross)
    return names | frozenset(map(question.as_written, unknown))


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_YEAR = re.compile(r"(?:19|20)\d\d")  # "in 2015" is often paraphrased ("that season")
_HAN_RUN = re.compile("[\u4e00-\u9fff]+")
# Single characters that are grammar, a place word, a common verb or a question word,
# never part of an unknown noun ("钱没了", "很慢", "开服装店", "谁赢", "超级碗上", "多大").
_FUNCTION_CHARS = frozenset(
    "没很要会能可不有你我他她它们最太更再还又就都也才只已让给想该开写拍看用做谁哪啥几多何"
    "上下里中内外前后由来较相时"
)


def unmatched_words(question: str, evidence: str, *, chinese: bool = True) -> frozenset[str]:
    """The question's numbers of three digits or more (not a year) that ``evidence``
    never gives, and (``chinese``) its runs of unsegmented Chinese characters none of
    whose characters it holds: a port number or an unknown noun names what is asked as
    a name does. Over XQuAD's and CMRC's own paragraphs these flag 0.2 % (XQuAD en), 0.4 %
    (zh), 0.1 % (CMRC) of the answerable questions; any pair or two-digit number, 5-6 %."""
    asked, text = search_normal(question), search_normal(evidence)
    given = {n.replace(",", "") for n in _NUMBER.findall(text)}
    out = {
        n
        for n in _NUMBER.findall(asked)
        if len(n) >= 3 and not _YEAR.fullmatch(n) and n.replace(",", "") not in given
    }
    if chinese:
        out |= {
            word
            for run in _HAN_RUN.findall(asked)
            for word in _unsegmented(run)
            if not any(c in text for c in word)
        }
    return frozenset(out)


def _unsegmented(run: str) -> list[str]:
    """The runs of two or more single-character words the segmenter leaves in ``run``."""
    words, current = [], ""
    for word in [*han_words(run), ""]:
        if len(word) == 1 and word not in CHINESE_STOP_WORDS and word not in _FUNCTION_CHARS:
            current += word
            continue
        if len(current) >= 2:
            words.append(current)
        current = ""
    return words


def not_found_note(question: QuestionReading, support: Support) -> str:
    """What was searched for and not found, in the question's words and language: the
    names missing, else the focus words missing, else that no sentence answers."""
    words = _words_of(question.text, support.missing) if support.missing else []
    if support.names_missing:
        names = sorted(support.names_missing, key=question.text.find)
        return _missing_note(question, names + [w for w in words if w not in names])
    if words:
        return _missing_note(question, words)
    if question.language == "zh":
        return "所给文档中没有能回答这个问题的句子。"
    return "No sentence in the documents searched answers the question."


def _missing_note(question: QuestionReading, words: list[str]) -> str:
    if question.language == "zh":
        return f"在所给文档中没有找到：{'、'.join(words)}。"
    return f"The documents searched do not mention: {', '.join(words)}."


def _words_of(text: str, terms: frozenset[str]) -> list[str]:
    """The question's own words behind ``terms`` (stems read back as typed), in order."""
    out: list[str] = []
    for word in _WORD.findall(text):
        if _HAN.match(word):
            out += [t for t in sorted(terms) if _HAN.match(t) and t in word and t not in out]
        elif key_terms(word) & terms and word not in out:
            out.append(word)
    return out or sorted(terms)


# ------------------------------------------------------------------- the coverage model


def evidence_answers(
    question: QuestionReading,
    scored: Sequence[Scored],
    support: Support,
    embedder: Embedder | None,
    *,
    cross: bool = False,
) -> bool:
    """The rules answerer's decision: across languages the focus check (``Support``: the
    coverage model never saw a question in the other language than its evidence); else
    the focus check too (no name missing; some focus word found or a sentence close by
    vector: the answer to an unrelated question), then the coverage model."""
    if cross:
        return support.answerable
    found = [s.candidate for s in scored]
    if _code(found):
        return True
    return support.answerable and model_coverage(question, found, embedder).covered


def candidates_answer(
    question: QuestionReading,
    found: Sequence[Candidate],
    rows: np.ndarray,
    scores: np.ndarray,
    embedded: bool,
    *,
    model: CoverageModel | None = None,
) -> bool:
    """The learned answerer's decision in one language (its candidates scored already):
    the focus check (``Support.answerable``, the closeness read off the rows' cosines),
    then the coverage model."""
    if _code(found):
        return True
    evidence = "\n".join(c.text for c in found)
    terms: set[str] = set().union(*(terms_of(c.text) for c in found)) if found else set()
    seen, checkable = focus_found(question.form.focus_terms - QUESTION_WORDS, terms, evidence)
    cosine = float(rows[:, COLUMNS.index("cosine")].max()) if embedded and len(rows) else 0.0
    language = "zh" if question.pairs else "en"
    close = cosine >= _COSINE_LOW + VECTOR_SUPPORT[language] * _COSINE_SPAN
    missing = checkable - seen - FUNCTION_WORDS
    names = absent_names(question, evidence, terms)
    if not Support(seen, missing, close, names_missing=names).answerable:
        return False
    return scored_coverage(question, found, rows, scores, embedded, model=model).covered


@dataclass(frozen=True)
class Coverage:
    """The coverage model's probability that the evidence answers, and its threshold."""

    probability: float
    threshold: float

    @property
    def covered(self) -> bool:
        return self.probability >= self.threshold


def model_coverage(
    question: QuestionReading,
    found: Sequence[Candidate],
    embedder: Embedder | None,
    *,
    scorer: Scorer | None = None,
    model: CoverageModel | None = None,
) -> Coverage:
    """The coverage model over ``found`` (the candidate sentences an answerer reads):
    the sentences it keeps, their feature rows and the sentence head's scores
    (``scored_coverage`` when the caller has them already)."""
    scorer = scorer or shipped_scorer()
    kept = kept_candidates(question.text, [c for c in found if c.text.strip()])
    rows = candidate_rows(question.text, kept, embedder)
    scores = scorer.sentence_scores(rows, embedder is not None)
    return scored_coverage(question, kept, rows, scores, embedder is not None, model=model)


def scored_coverage(
    question: QuestionReading,
    found: Sequence[Candidate],
    rows: np.ndarray,
    scores: np.ndarray,
    embedded: bool,
    *,
    model: CoverageModel | None = None,
) -> Coverage:
    """The coverage model over candidates already scored; code never counts as
    uncovered (a question about code shares few words with it: ``_code``)."""
    model = model or shipped_coverage_model()
    threshold = model.threshold(question.language, embedded)
    if _code(found):
        return Coverage(1.0, 0.0)  # never refused
    return Coverage(model.probability(rows, scores, question.language, embedded), threshold)


def _code(found: Sequence[Candidate]) -> bool:
    """Most of the candidates are code: prose words ("mutual exclusion") are not in it."""
    return bool(found) and 2 * sum(c.kind == "code" for c in found) >= len(found)
