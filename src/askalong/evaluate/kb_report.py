"""The KB evaluation's report: the item scores averaged per category, plus the rows
"answerable" (every item expected to be answered) and "all", as a markdown table and as
JSON (``askalong eval kb --json``).

Means are over the items a metric applies to (``None`` where none does): the answer hit (the
share of gold snippets the direct answer holds) and the ranking metrics over items expected
to be answered that have gold evidence (Recall@k is the cited-chunk hit); refusal accuracy over
all items (a refusal is right exactly when the item expects one); the citation scores
over answers that made statements; "search" R@5 and MRR rank the first hits of one search
of the whole question instead of the cited chunks (a diagnostic). Leaks are a count,
never a mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from askalong.evaluate.kb_items import CATEGORIES
from askalong.evaluate.kb_judge import Agreement
from askalong.evaluate.kb_metrics import ItemScore, K
from askalong.evaluate.metrics import mean

JUDGE_NOT_MEASURED = "not measured: no language model configured (offline run)"
METRICS = (
    ("answer_hit", "answer hit"),
    ("recall", f"Recall@{K}"),
    ("mrr", "MRR"),
    ("ndcg", f"nDCG@{K}"),
    ("refusal_accuracy", "refusal acc."),
    ("citation_precision", "cit. precision"),
    ("citation_recall", "cit. recall"),
    ("search_recall", f"search R@{K}"),
    ("search_mrr", "search MRR"),
)
GOALS = {"recall": 0.85, "mrr": 0.7, "no_answer_refusal": 0.9, "leaks": 0}


@dataclass(frozen=True)
class CategoryScores:
    category: str
    items: int
    recall: float | None
    mrr: float | None
    ndcg: float | None
    refusal_accuracy: float
    citation_precision: float | None
    citation_recall: float | None
    leaks: int
    errors: int
    search_recall: float | None = None
    search_mrr: float | None = None
    judge: float | None = None  # share of items the model judge called right
    answer_hit: float | None = None  # share of gold snippets the direct answers hold


def category_scores(name: str, scores: Sequence[ItemScore]) -> CategoryScores:
    return CategoryScores(
        category=name,
        items=len(scores),
        recall=_mean(s.recall for s in scores),
        mrr=_mean(s.mrr for s in scores),
        ndcg=_mean(s.ndcg for s in scores),
        refusal_accuracy=mean(float(s.correct_refusal) for s in scores),
        citation_precision=_mean(s.citation_precision for s in scores),
        citation_recall=_mean(s.citation_recall for s in scores),
        leaks=sum(s.leaks for s in scores),
        errors=sum(1 for s in scores if s.error),
        search_recall=_mean(s.search_recall for s in scores),
        search_mrr=_mean(s.search_mrr for s in scores),
        judge=_mean(s.judge for s in scores),
        answer_hit=_mean(s.answer_hit for s in scores),
    )


def summarise(scores: Sequence[ItemScore]) -> list[CategoryScores]:
    """One row per category present (in the categories' order), then answerable, all."""
    rows = [
        category_scores(c, [s for s in scores if s.category == c])
        for c in CATEGORIES
        if any(s.category == c for s in scores)
    ]
    answerable = [s for s in scores if s.expected == "answer"]
    if answerable:
        rows.append(category_scores("answerable", answerable))
    rows.append(category_scores("all", scores))
    return rows


def _mean(values: Any) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def to_markdown(rows: Sequence[CategoryScores], agreed: Agreement | None = None) -> str:
    """The table; a "judge" column and the judge's agreement line when it judged."""
    metrics = (*METRICS, ("judge", "judge")) if agreed is not None else METRICS
    head = "| category | items | " + " | ".join(label for _, label in metrics)
    head += " | leaks | errors |"
    rule = "| --- | ---: |" + " ---: |" * (len(metrics) + 2)
    lines = [head, rule]
    for row in rows:
        cells = " | ".join(cell(getattr(row, name)) for name, _ in metrics)
        lines.append(f"| {row.category} | {row.items} | {cells} | {row.leaks} | {row.errors} |")
    lines.append("")
    lines.append(f"Judge scores and judge agreement: {judge_note(agreed)}.")
    return "\n".join(lines)


def judge_note(agreed: Agreement | None) -> str:
    if agreed is None:
        return JUDGE_NOT_MEASURED
    if not agreed.labelled:
        return "judged; agreement not measured: no hand-labelled item was judged"
    return (
        f"judged; agreement with the {agreed.labelled} hand-labelled items "
        f"{cell(agreed.agreement)}, Cohen's kappa {cell(agreed.kappa)}"
    )


def report_json(
    rows: Sequence[CategoryScores],
    scores: Sequence[ItemScore],
    agreed: Agreement | None = None,
    answers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """``answers`` (item id -> the answer given) add each item's ``answer``."""
    items = []
    for s in scores:
        row = {**asdict(s), "leaked": list(s.leaked), "correct_refusal": s.correct_refusal}
        if answers is not None:
            row["answer"] = answers.get(s.item_id, "")
        items.append(row)
    return {
        "k": K,
        "categories": [asdict(r) for r in rows],
        "items": items,
        "judge": None if agreed is None else asdict(agreed),
        "judge_note": judge_note(agreed),
        "goals": GOALS,
    }
