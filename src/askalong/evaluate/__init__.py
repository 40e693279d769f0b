"""Retrieval evaluation: real test collections, ranking metrics and a generic runner.

``load_dataset`` reads a collection (SciFact or any SQuAD-format file), and
``evaluate_retrieval`` runs its queries through any search function and averages the
metrics into a ``RetrievalReport``; ``to_markdown_rows`` prints reports as one table and
``report_json`` gives one report's JSON form (``eval retrieval --json``).
"""

from askalong.evaluate.datasets import (
    CorpusDocument,
    EvalQuery,
    GoldAnswer,
    Granularity,
    RetrievalCorpus,
    Unit,
    load_dataset,
    load_scifact,
    squad_corpus,
)
from askalong.evaluate.metrics import hit_at_k, mean, mrr_at_k, ndcg_at_k, recall_at_k
from askalong.evaluate.retrieval import (
    QueryScores,
    RetrievalReport,
    document_units,
    evaluate_retrieval,
    report_json,
    score_query,
    to_markdown_rows,
)

__all__ = [
    "CorpusDocument",
    "EvalQuery",
    "GoldAnswer",
    "Granularity",
    "QueryScores",
    "RetrievalCorpus",
    "RetrievalReport",
    "Unit",
    "document_units",
    "evaluate_retrieval",
    "hit_at_k",
    "load_dataset",
    "load_scifact",
    "mean",
    "mrr_at_k",
    "ndcg_at_k",
    "recall_at_k",
    "report_json",
    "score_query",
    "squad_corpus",
    "to_markdown_rows",
]
