"""Ranking metrics over one query: pure functions of a ranked list of ids and the set of
relevant ids (binary relevance), each citing its formula.

``ranked`` is best first; rank ``i`` is 1-based. ``R`` is the set of relevant ids; a query
with empty ``R`` scores 0. An id repeated in ``ranked`` gains only where it first appears
(a unit found twice is found once); the repeat keeps its rank but is not relevant there.
Runs without repeats score exactly as in trec_eval.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator, Sequence


def ndcg_at_k(ranked: Sequence[str], relevant: Collection[str], k: int = 10) -> float:
    """nDCG@k = DCG@k / IDCG@k (Järvelin & Kekäläinen 2002, binary gains, as in trec_eval
    ``ndcg_cut``), where DCG@k = Σ_{i ≤ k, ranked[i] ∈ R} 1 / log2(i + 1) and IDCG@k is
    the same sum over i = 1 … min(|R|, k): every relevant id ranked first."""
    ideal = sum(_discount(i) for i in range(1, min(len(relevant), k) + 1))
    if ideal == 0:
        return 0.0
    gained = sum(_discount(i) for i, _ in _relevant_ranks(ranked, relevant, k))
    return gained / ideal


def recall_at_k(ranked: Sequence[str], relevant: Collection[str], k: int = 10) -> float:
    """Recall@k = |{relevant ids in the top k}| / |R| (the BEIR / trec_eval ``recall_k``)."""
    if not relevant:
        return 0.0
    return sum(1 for _ in _relevant_ranks(ranked, relevant, k)) / len(relevant)


def mrr_at_k(ranked: Sequence[str], relevant: Collection[str], k: int = 10) -> float:
    """Reciprocal rank @k = 1 / (rank of the first relevant id) if it is ≤ k, else 0;
    its mean over queries is MRR@k (Voorhees, TREC-8 QA track)."""
    first = next(_relevant_ranks(ranked, relevant, k), None)
    return 0.0 if first is None else 1.0 / first[0]


def hit_at_k(ranked: Sequence[str], relevant: Collection[str], k: int = 10) -> float:
    """Hit@k = 1 if any relevant id is in the top k, else 0 (success@k).

    Its mean over queries is the "Recall@k" of the SQuAD-derived sets: the fraction of
    questions whose paragraph is found in the top k. With one relevant unit per question
    it equals ``recall_at_k``."""
    return 1.0 if next(_relevant_ranks(ranked, relevant, k), None) else 0.0


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean (macro-average over queries); an empty input is an error, not 0."""
    items = list(values)
    if not items:
        raise ValueError("mean of no values")
    return math.fsum(items) / len(items)


def _discount(rank: int) -> float:
    return 1.0 / math.log2(rank + 1)


def _relevant_ranks(
    ranked: Sequence[str], relevant: Collection[str], k: int
) -> Iterator[tuple[int, str]]:
    """(1-based rank, id) of each relevant id in the top k, at its first occurrence."""
    seen: set[str] = set()
    for rank, item in enumerate(ranked[:k], start=1):
        if item in relevant and item not in seen:
            seen.add(item)
            yield rank, item
