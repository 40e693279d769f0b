"""Run a test collection's queries through any search function and score the rankings.

The runner knows nothing of the engine: ``search`` takes a query text and returns
ranked items (chunk ids, document keys, or anything else), and ``unit_of`` says which
judged units (document key, paragraph index) each item covers. How the covered units
are scored depends on the collection's granularity:

- ``document`` (SciFact): the ranking is read as a ranking of documents, each document
  placed where its first item is (max-passage pooling, as BEIR does for passages), and
  Recall@k is the fraction of the relevant documents found in the top k.
- ``paragraph`` (SQuAD-format sets): every item keeps its own rank, and it is relevant
  when it covers the gold paragraph, so a chunk spanning paragraphs 2–4 finds a question
  asked on paragraph 3. An item covering a whole document (paragraph None) finds no
  paragraph. Recall@k is Hit@k: the fraction of questions found in the top k.

No I/O happens here except the calls to ``search``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TypeVar

from askalong.evaluate.datasets import EvalQuery, Granularity, RetrievalCorpus, Unit
from askalong.evaluate.metrics import hit_at_k, mean, mrr_at_k, ndcg_at_k, recall_at_k

T = TypeVar("T")
_NOT_RELEVANT = "\x00rank"  # prefix of the labels of ranks that find no gold unit


@dataclass(frozen=True)
class QueryScores:
    """The metrics of one query."""

    ndcg10: float
    recall1: float
    recall5: float
    recall10: float
    mrr10: float


@dataclass(frozen=True)
class RetrievalReport:
    """Mean metrics over the judged queries of one collection, for one search mode.

    A metric is None when it cannot be computed (no judged query). ``misses`` holds the
    ids of the queries with no relevant unit in the top 10, for triage.
    """

    dataset: str
    mode: str
    queries: int
    ndcg10: float | None
    recall1: float | None
    recall5: float | None
    recall10: float | None
    mrr10: float | None
    queries_per_second: float
    misses: tuple[str, ...] = ()


def document_units(key: str) -> frozenset[Unit]:
    """``unit_of`` for a search that returns document keys."""
    return frozenset({Unit(key)})


def evaluate_retrieval(
    corpus: RetrievalCorpus,
    search: Callable[[str], Sequence[T]],
    *,
    unit_of: Callable[[T], Collection[Unit]],
    mode: str = "default",
    progress: Callable[[int], None] | None = None,
) -> RetrievalReport:
    """Search every judged query of ``corpus`` and average its metrics.

    Queries without relevant units are skipped (as BEIR does). ``progress`` is called
    with the number of queries done after each one. Queries per second counts the time
    spent inside ``search`` only.
    """
    judged = [query for query in corpus.queries if query.relevant]
    scores: list[QueryScores] = []
    seconds = 0.0
    for done, query in enumerate(judged, start=1):
        started = time.perf_counter()
        items = search(query.text)
        seconds += time.perf_counter() - started
        covered = [unit_of(item) for item in items]
        scores.append(score_query(query, covered, corpus.granularity))
        if progress is not None:
            progress(done)
    return _report(corpus.name, mode, judged, scores, seconds)


def score_query(
    query: EvalQuery, covered: Sequence[Collection[Unit]], granularity: Granularity
) -> QueryScores:
    """The metrics of one query, given the units covered by each retrieved item in order."""
    ranked, relevant = _labels(query, covered, granularity)
    recall = recall_at_k if granularity == "document" else hit_at_k
    return QueryScores(
        ndcg10=ndcg_at_k(ranked, relevant, 10),
        recall1=recall(ranked, relevant, 1),
        recall5=recall(ranked, relevant, 5),
        recall10=recall(ranked, relevant, 10),
        mrr10=mrr_at_k(ranked, relevant, 10),
    )


def _labels(
    query: EvalQuery, covered: Sequence[Collection[Unit]], granularity: Granularity
) -> tuple[list[str], set[str]]:
    """The ranking as labels for the metric functions, and the relevant labels."""
    if granularity == "document":
        relevant = {unit.document for unit in query.relevant}
        # Max-passage pooling: a document ranks where its first item does.
        documents = (unit.document for units in covered for unit in units)
        return list(dict.fromkeys(documents)), relevant
    relevant = {str(unit) for unit in query.relevant}
    ranked = [_paragraph_label(units, query.relevant, rank) for rank, units in enumerate(covered)]
    return ranked, relevant


def _paragraph_label(units: Collection[Unit], relevant: frozenset[Unit], rank: int) -> str:
    """The gold paragraph an item covers, or a label that matches nothing."""
    found = sorted(str(unit) for unit in units if unit in relevant)
    return found[0] if found else f"{_NOT_RELEVANT}{rank}"


def _report(
    name: str, mode: str, judged: Sequence[EvalQuery], scores: Sequence[QueryScores], seconds: float
) -> RetrievalReport:
    def average(metric: Callable[[QueryScores], float]) -> float | None:
        return mean(metric(s) for s in scores) if scores else None

    misses = tuple(q.id for q, s in zip(judged, scores, strict=True) if s.recall10 == 0)
    return RetrievalReport(
        dataset=name,
        mode=mode,
        queries=len(scores),
        ndcg10=average(lambda s: s.ndcg10),
        recall1=average(lambda s: s.recall1),
        recall5=average(lambda s: s.recall5),
        recall10=average(lambda s: s.recall10),
        mrr10=average(lambda s: s.mrr10),
        queries_per_second=len(scores) / seconds if seconds > 0 else 0.0,
        misses=misses,
    )


_COLUMNS = ("dataset", "mode", "queries", "nDCG@10", "R@1", "R@5", "R@10", "MRR@10", "q/s")


def report_json(report: RetrievalReport) -> dict[str, object]:
    """``eval retrieval --json``: the metrics, without the triage list of misses."""
    return {key: value for key, value in dataclasses.asdict(report).items() if key != "misses"}


def to_markdown_rows(reports: Sequence[RetrievalReport]) -> str:
    """One markdown table, a row per mode, rows of a dataset together (first-seen order)."""
    datasets = list(dict.fromkeys(report.dataset for report in reports))
    ordered = sorted(reports, key=lambda report: datasets.index(report.dataset))
    lines = [_row(_COLUMNS), _row(("---",) * 2 + ("---:",) * (len(_COLUMNS) - 2))]
    lines.extend(_row(_cells(report)) for report in ordered)
    return "\n".join(lines) + "\n"


def _cells(report: RetrievalReport) -> tuple[str, ...]:
    metrics = (report.ndcg10, report.recall1, report.recall5, report.recall10, report.mrr10)
    return (
        report.dataset,
        report.mode,
        str(report.queries),
        *("—" if value is None else f"{value:.3f}" for value in metrics),
        f"{report.queries_per_second:.1f}",
    )


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"
