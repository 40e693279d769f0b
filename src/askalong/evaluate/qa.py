"""Answer quality on SQuAD-format sets, through the whole product path (search, context,
answerer, quote check, verification), scored against the gold answers.

- **verbatim**: every quote shown equals its block's text at its span (by construction;
  checked anyway, against the store).
- **evidence hit**: the question is answered and a quote contains a gold answer.
- **unanswerable**: the same question asked of a *different* article must come back
  ``not_covered``.
- **EM / F1** (SQuAD's, character-level for Chinese) of the direct answer: meaningful for
  a model answerer, which writes short answers; the extractive one answers in sentences.
"""

from __future__ import annotations

import re
import statistics
import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from askalong.asking.asker import Asker, Question
from askalong.evaluate.datasets import EvalQuery, RetrievalCorpus
from askalong.store.base import DocumentStore
from askalong.types import Access, Answer

Progress = Callable[[int], None]


@dataclass(frozen=True)
class QaReport:
    dataset: str
    answerer: str
    questions: int
    answered: float
    evidence_hit: float
    verbatim: float
    unanswerable_not_covered: float
    exact_match: float
    f1: float
    p50_ms: float
    p95_ms: float


@dataclass(frozen=True)
class _Outcome:
    answered: bool
    hit: bool
    verbatim: bool
    refused_elsewhere: bool
    exact: float
    f1: float
    ms: float


def evaluate_qa(
    asker: Asker,
    store: DocumentStore,
    corpus: RetrievalCorpus,
    document_ids: dict[str, str],
    *,
    limit: int | None = None,
    progress: Progress | None = None,
) -> QaReport:
    """``document_ids`` maps each corpus document key to its stored id."""
    queries = (
        [q for q in corpus.queries if q.answers][:limit]
        if limit
        else [q for q in corpus.queries if q.answers]
    )
    keys = [d.key for d in corpus.documents]
    outcomes = []
    for done, query in enumerate(queries, 1):
        outcomes.append(_score(asker, store, query, document_ids, keys))
        if progress:
            progress(done)
    return _report(corpus.name, asker.answerer.name, outcomes)


def _score(
    asker: Asker, store: DocumentStore, query: EvalQuery, ids: dict[str, str], keys: Sequence[str]
) -> _Outcome:
    access = Access.local()
    gold_key = next(iter(query.relevant)).document
    gold = store.get_document(ids[gold_key], access)
    answer = asker.ask(Question(query.text, documents=(gold,)), access)
    other = store.get_document(ids[keys[(keys.index(gold_key) + 1) % len(keys)]], access)
    elsewhere = asker.ask(Question(query.text, documents=(other,)), access)
    golds = [a.text for a in query.answers]
    return _Outcome(
        answered=answer.status == "answered",
        hit=answer.status == "answered" and _quotes_contain(answer, golds),
        verbatim=_verbatim(store, answer),
        refused_elsewhere=elsewhere.status == "not_covered",
        exact=max(exact_match(answer.answer, g) for g in golds),
        f1=max(f1_score(answer.answer, g) for g in golds),
        ms=answer.timings.total_ms,
    )


def _quotes_contain(answer: Answer, golds: Sequence[str]) -> bool:
    quoted = [_normal(q.text) for q in answer.quotes]
    return any(_normal(g) in text for g in golds for text in quoted)


def _verbatim(store: DocumentStore, answer: Answer) -> bool:
    for quote in answer.quotes:
        block = store.block(quote.document_id, quote.block_id)
        if block.text[quote.start : quote.end] != quote.text:
            return False
    return True


def _report(name: str, answerer: str, outcomes: Sequence[_Outcome]) -> QaReport:
    def rate(values: Sequence[bool | float]) -> float:
        return sum(values) / len(values) if values else 0.0

    times = sorted(o.ms for o in outcomes) or [0.0]
    return QaReport(
        dataset=name,
        answerer=answerer,
        questions=len(outcomes),
        answered=rate([o.answered for o in outcomes]),
        evidence_hit=rate([o.hit for o in outcomes]),
        verbatim=rate([o.verbatim for o in outcomes]),
        unanswerable_not_covered=rate([o.refused_elsewhere for o in outcomes]),
        exact_match=rate([o.exact for o in outcomes]),
        f1=rate([o.f1 for o in outcomes]),
        p50_ms=statistics.median(times),
        p95_ms=times[min(len(times) - 1, int(0.95 * len(times)))],
    )


# -- SQuAD's answer metrics -------------------------------------------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_PUNCTUATION = set(string.punctuation) | set("，。！？；：、“”‘’（）《》【】…—")


def _normal(text: str) -> str:
    """SQuAD normalisation (lower case, no punctuation or articles, single spaces), NFKC."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def _tokens(text: str) -> list[str]:
    """Words for English; single characters for Chinese (as CMRC's evaluation does)."""
    normal = _normal(text)
    if _CJK.search(normal):
        return [ch for ch in normal if not ch.isspace()]
    return normal.split()


def exact_match(prediction: str, gold: str) -> float:
    return float(_normal(prediction) == _normal(gold))


def f1_score(prediction: str, gold: str) -> float:
    """Token-overlap F1 = 2PR / (P + R) (Rajpurkar et al., 2016)."""
    predicted, expected = _tokens(prediction), _tokens(gold)
    common = sum((Counter(predicted) & Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def to_markdown(reports: Sequence[QaReport]) -> str:
    head = (
        "| dataset | answerer | questions | answered | evidence hit | verbatim "
        "| unanswerable → not covered | EM | F1 | p50 ms | p95 ms |"
    )
    rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    rows = [
        f"| {r.dataset} | {r.answerer} | {r.questions} | {r.answered:.3f} | "
        f"{r.evidence_hit:.3f} | {r.verbatim:.3f} | {r.unanswerable_not_covered:.3f} | "
        f"{r.exact_match:.3f} | {r.f1:.3f} | {r.p50_ms:.0f} | {r.p95_ms:.0f} |"
        for r in reports
    ]
    return "\n".join([head, rule, *rows])
