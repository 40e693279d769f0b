"""Whether the evidence can answer the question at all (pure).

Sentences that share a question's generic words ("use", "check") are always found; what
decides is whether the question's *focus* (``QuestionForm.focus_terms``: "Rust
lifetimes", "funded") occurs in the evidence. A focus term is supported when a candidate
sentence holds it (a stem, or a Chinese word as a substring, since the segmenter may cut
it differently there), or, with an embedder, when some sentence is close in meaning to
the question. Focus terms in a script the evidence does not use at all (a Chinese
question over an English paper) cannot be checked by term: the vector decides them.
When none of the checkable focus is supported and no sentence is close by vector, the
answer is ``not_covered``.

With an embedder, a question can also be refused when *most* of its focus is missing:
each checkable focus term weighs its rarity among the candidate sentences (a smoothed
IDF: a term in every sentence, as the document's own subject "TIMP" is, says little;
one in two sentences says much), a missing term weighs 1, and when the missing share of
that weight reaches ``MISSING_SHARE`` while no sentence is close to the question
(``CLOSE``), the answer is ``not_covered`` ("What does a commercial TIMP licence cost?":
"timp" everywhere, the rest nowhere). A covered question in other words keeps its rare terms
(the names it asks about) and misses only paraphrased ones. Across languages (a Chinese
question over an English paper, ``across``) the question's own-script words cannot be
checked: only its words in the evidence's script count (a name: "Kubernetes"), and the
vector decides the rest.
Numbers the question gives and Chinese words the segmenter does not know (left as single
characters: "尘虱" as 尘 / 虱) are held to the evidence as names are (``unmatched_words``):
"2003如何关闭445端口" over a page on turning LivePhotos off, "尘虱是怎么样产生的" over pages
that share only "产生", are not covered, whatever is near by vector.
Whenever an answer is not covered, the explanation names the focus words that were not
found (or says that nothing was close in meaning), in the question's language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.answer.extractive.names import missing_names
from askalong.answer.extractive.scoring import Scored
from askalong.answer.extractive.typed import typed_answer_missing
from askalong.question.form import focus_found
from askalong.question.reading import QuestionReading
from askalong.question.traditional import plain
from askalong.text.patterns import lazy
from askalong.text.tokens import CHINESE_STOP_WORDS, han_words, key_terms, search_normal

# Refused by term only when none of the checkable focus is found: a stricter share (0.5)
# refused paraphrased XQuAD / CMRC questions (answered 0.99 -> 0.94 / 0.92, limit 300).
SUPPORTED_SHARE = 0.01  # share of the checkable focus terms the evidence must hold ...
# ... unless a sentence's rescaled similarity reaches this (Chinese cosines run higher:
# a Kubernetes question over the Java manual reached 0.83 on a sentence about HashMap)
VECTOR_SUPPORT = {"en": 0.8, "zh": 0.9}

# The refusal by weight (with an embedder), chosen from the ROC of the dev set
# tests/data/refusal_dev.jsonl (benchmarks/refusals.py, benchmarks/results/refusals-
# 2026-12-01.md) held against XQuAD en (300 answerable questions, paragraph level): share
# 0.65 / cosine 0.88 refused 12 of 16 uncovered and 2 of 20 covered dev questions but 13 of
# the 300 XQuAD ones (answered 0.993 -> 0.957); 0.8 / 0.86 refuses 5 of 16, 1 of 20 and 3 of
# 300. Chinese (dev 2 of 8 uncovered, 0 of 8 covered; XQuAD zh unchanged) keeps 0.8 / 0.88.
MISSING_SHARE = {"en": 0.8, "zh": 0.8}
CLOSE = {"en": 0.86, "zh": 0.88}  # best question-sentence cosine below which ...
# ... on the scorer's rescaled similarity (cosine 0.78 -> 0, 0.9 -> 1, ``Weights``)
_COSINE_LOW, _COSINE_SPAN = 0.78, 0.12
IDF_FLOOR = 0.3  # a found term in every sentence still weighs this

STEM_PREFIX = 6
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
_HAN = lazy("[\u4e00-\u9fff]")
_LATIN = lazy("[A-Za-z]")
_WORD = lazy(r"[A-Za-z][\w'’-]*|[\u4e00-\u9fff]+")


@dataclass(frozen=True)
class Support:
    """The focus terms found and missing (by term), and whether a sentence is close to
    the question by vector."""

    found: frozenset[str]
    missing: frozenset[str]
    by_vector: bool
    missing_share: float = 0.0  # the rarity-weighted share of the focus that is missing
    far: bool = False  # with an embedder: no sentence is close to the question
    share_needed: float = MISSING_SHARE["en"]  # the question's language's MISSING_SHARE
    names_missing: frozenset[str] = frozenset()  # names the question gives, in no sentence
    value_missing: bool = False  # a number / date is asked and no sentence gives one on it

    @property
    def answerable(self) -> bool:
        if self.names_missing or self.value_missing:  # decisive, whatever is near by vector
            return False
        checked = len(self.found) + len(self.missing)
        if not checked:
            return True
        if self.by_vector:
            return True
        if self.far and self.missing_share >= self.share_needed:
            return False
        return len(self.found) / checked >= SUPPORTED_SHARE


def focus_support(
    question: QuestionReading,
    scored: Sequence[Scored],
    *,
    embedded: bool = False,
    cross: bool = False,
) -> Support:
    """How far ``scored`` (every candidate sentence) supports the question's focus;
    ``embedded``: the sentences' similarities come from an embedder; ``cross``: the
    evidence is in the other language (``across.crosses``)."""
    evidence = "\n".join(s.candidate.text for s in scored)
    terms: set[str] = set().union(*(s.terms for s in scored)) if scored else set()
    found, checkable = focus_found(question.form.focus_terms - QUESTION_WORDS, terms, evidence)
    language = "zh" if question.pairs else "en"  # any Chinese in it
    by_vector = any(s.similarity >= VECTOR_SUPPORT[language] for s in scored)
    missing = checkable - found
    names = missing_names(question.name_runs, evidence, terms)
    # both read as plain: 什麼 is a question word, not an unknown noun the evidence must hold
    unknown = unmatched_words(question.plain, plain(evidence), chinese=not cross)
    names |= frozenset(map(question.as_written, unknown))
    if cross:  # the question's own-script words cannot be in the other language's
        # sentences (a stray one may be); a name in the evidence's script still counts
        own = _HAN if question.language == "zh" else _LATIN
        kept = frozenset(t for t in missing if not own.match(t))
        return Support(found, kept, by_vector, names_missing=names)
    closest = max((s.similarity for s in scored), default=0.0)
    far = embedded and closest < (CLOSE[language] - _COSINE_LOW) / _COSINE_SPAN
    return Support(
        found,
        missing - FUNCTION_WORDS,
        by_vector,
        missing_share=_missing_share(found, missing - FUNCTION_WORDS, scored),
        far=far,
        share_needed=MISSING_SHARE[language],
        names_missing=names,
        value_missing=typed_answer_missing(question, found, scored, _holds),
    )


_NUMBER = lazy(r"\d+(?:[.,]\d+)*")
_YEAR = lazy(r"(?:19|20)\d\d")  # "in 2015" is often paraphrased ("that season")
_HAN_RUN = lazy("[\u4e00-\u9fff]+")
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


def _missing_share(
    found: frozenset[str], missing: frozenset[str], scored: Sequence[Scored]
) -> float:
    """The missing terms' share of the focus weight: a found term weighs its smoothed
    IDF among the sentences, ``max(floor, log((n + 1) / (df + 0.5)) / log(n + 2))``
    (about 1 for a term in one sentence), a missing term 1."""
    n = len(scored)
    if not missing or not n:
        return 0.0
    weight = 0.0
    for term in found:
        df = sum(_holds(s, term) for s in scored)
        weight += max(IDF_FLOOR, math.log((n + 1) / (df + 0.5)) / math.log(n + 2))
    return len(missing) / (len(missing) + weight)


def _holds(scored: Scored, term: str) -> bool:
    """``term`` in the sentence: as a Chinese substring, or a stem sharing its first six
    letters ("classifier" / "classification" stem apart as "classifi" / "classif")."""
    if _HAN.match(term):
        return term in scored.candidate.text
    stem = term[:STEM_PREFIX]
    return term in scored.terms or (
        len(term) >= STEM_PREFIX and any(t.startswith(stem) for t in scored.terms)
    )


# What a refusal's note says was searched for and not found, by the reader's wording
NOT_FOUND_NOTES: dict[str, dict[str, str]] = {
    "en": {
        "missing": "The documents searched do not mention: {words}.",
        "value": "No sentence in the documents searched gives a {kind} about: {words}.",
        "date": "date",
        "number": "number",
        "far": "Nothing in the documents searched is close in meaning to the question.",
    },
    "zh": {
        "missing": "在所给文档中没有找到：{words}。",
        "value": "所给文档中没有给出关于{words}的{kind}。",
        "date": "日期",
        "number": "数值",
        "far": "所给文档中没有与这个问题意思相近的内容。",
    },
    "zh-Hant": {
        "missing": "在所給文件中沒有找到：{words}。",
        "value": "所給文件中沒有給出關於{words}的{kind}。",
        "date": "日期",
        "number": "數值",
        "far": "所給文件中沒有與這個問題意思相近的內容。",
    },
}


def not_found_note(question: QuestionReading, support: Support) -> str:
    """What was searched for and not found, in the question's words and wording: the
    names missing, else the focus words missing, else the value asked for (a number, a
    date) that no sentence gives, else that nothing was close in meaning."""
    said = NOT_FOUND_NOTES[question.wording]
    glue = "、" if question.language == "zh" else ", "
    words = _words_of(question.text, support.missing) if support.missing else []
    if support.names_missing:
        names = sorted(support.names_missing, key=question.text.find)
        words = names + [w for w in words if w not in names]
    if words:
        return said["missing"].format(words=glue.join(words))
    if support.value_missing and support.found:
        words = _words_of(question.text, support.found)
        kind = said["date" if _dated(question) else "number"]
        return said["value"].format(words=glue.join(words), kind=kind)
    return said["far"]


def _dated(question: QuestionReading) -> bool:
    return question.form.answer_type == "time"


def _words_of(text: str, terms: frozenset[str]) -> list[str]:
    """The question's own words behind ``terms`` (stems read back as typed), in order."""
    out: list[str] = []
    for word in _WORD.findall(text):
        if _HAN.match(word):
            out += [t for t in sorted(terms) if _HAN.match(t) and t in word and t not in out]
        elif key_terms(word) & terms and word not in out:
            out.append(word)
    return out or sorted(terms)
