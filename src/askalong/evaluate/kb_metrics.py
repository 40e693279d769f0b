"""The KB evaluation's scores of one item, pure: the ranking of its cited chunks against
its gold evidence, its refusal, its permission leaks.

The cited chunks are the chunks holding the answer's sources, in source-number order
(the order the searches returned them), each once. A cited chunk covers a gold evidence
item when it is in the evidence's document and holds its snippet (both sides folded as
quotes are, ``text/fold``), or when it is a gold chunk id. Over the top ``k``:

- Recall@k: the share of the item's gold evidence items some cited chunk covers;
- MRR: 1 / the rank of the first cited chunk that covers any (0 when none does);
- nDCG@k: binary gains, a chunk gaining where it first covers a gold item not covered
  above it, ideal ``min(|gold|, k)`` (``evaluate/metrics.ndcg_at_k``).

The answer itself is scored apart from the chunks it cites: ``answer_hit`` is the share of
the item's gold snippets that the direct answer's text holds (folded as above, citation
markers aside; a refusal holds none), so a wrong sentence quoted from the right chunk counts
for Recall@k (the cited-chunk hit) but not as an answer hit. The direct answer is the
answer's text without the part questions a multi-part answer repeats (``Outcome.direct``).

The same ranking over the first ``k`` hits of one search of the whole question
(``search_recall``, ``search_mrr``) tells a retrieval miss from an answer that cited
something else than what was found.

A leak is a cited chunk the asker may not see (by the corpus's owners and visibilities,
not by the store's filter, which is what is being tested), or a gold snippet of a
document the asker may not see found in the answer's text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askalong.evaluate.kb_items import KbItem
from askalong.evaluate.metrics import mrr_at_k, ndcg_at_k
from askalong.text.fold import fold, fold_excerpt
from askalong.verify.claims import CITATION_MARKER

K = 5


@dataclass(frozen=True)
class CitedChunk:
    """One cited chunk: its id, the corpus key of its document and its text."""

    chunk_id: str
    document: str  # corpus key
    text: str
    title: str = ""


@dataclass(frozen=True)
class Outcome:
    """What the agent did with one item, as scoring needs it."""

    item_id: str
    refused: bool  # not covered
    answer: str
    cited: tuple[CitedChunk, ...]
    citation_precision: float | None = None
    citation_recall: float | None = None
    error: str = ""
    searched: tuple[CitedChunk, ...] = ()  # the search's first hits (a diagnostic)
    direct: str | None = None  # the direct answer(s) alone; None: ``answer`` is that


@dataclass(frozen=True)
class ItemScore:
    item_id: str
    category: str
    expected: str
    refused: bool
    recall: float | None  # None: no gold evidence to rank against
    mrr: float | None
    ndcg: float | None
    leaks: int
    leaked: tuple[str, ...]  # the leaked chunks' documents
    citation_precision: float | None
    citation_recall: float | None
    error: str = ""
    search_recall: float | None = None  # the same ranking over the search's first hits
    search_mrr: float | None = None
    judge: float | None = None  # the model judge's verdict (1 right, 0 wrong), when judged
    answer_hit: float | None = None  # share of gold snippets the direct answer holds

    @property
    def correct_refusal(self) -> bool:
        return self.refused == (self.expected == "refuse")


def covered(item: KbItem, chunk: CitedChunk) -> frozenset[int]:
    """The indices of the gold items (evidence first, then chunk ids) the chunk covers."""
    text = fold(chunk.text)
    found = {
        i
        for i, gold in enumerate(item.gold_evidence)
        if gold.document in (chunk.document, chunk.title) and fold_excerpt(gold.text) in text
    }
    base = len(item.gold_evidence)
    found |= {base + i for i, cid in enumerate(item.gold_chunk_ids) if cid == chunk.chunk_id}
    return frozenset(found)


def ranked_units(item: KbItem, cited: Sequence[CitedChunk]) -> list[str]:
    """The cited chunks as gold-unit ids: at each rank the first gold item the chunk
    newly covers, or the chunk's own id when it covers none (never relevant)."""
    seen: set[int] = set()
    units: list[str] = []
    for chunk in dict((c.chunk_id, c) for c in cited).values():
        new = sorted(covered(item, chunk) - seen)
        seen.update(new)
        units.append(f"gold:{new[0]}" if new else f"chunk:{chunk.chunk_id}")
    return units


def ranking_scores(item: KbItem, cited: Sequence[CitedChunk], k: int = K) -> tuple[float, ...]:
    """(Recall@k, MRR@k, nDCG@k) of the cited chunks; recall counts every gold item a
    top-k chunk covers, even two in one chunk."""
    relevant = {f"gold:{i}" for i in range(item.gold_count)}
    units = ranked_units(item, cited)
    top = list(dict((c.chunk_id, c) for c in cited).values())[:k]
    hit = set().union(*(covered(item, c) for c in top)) if top else set()
    return len(hit) / item.gold_count, mrr_at_k(units, relevant, k), ndcg_at_k(units, relevant, k)


def answer_hit(item: KbItem, outcome: Outcome) -> float | None:
    """The share of the item's gold snippets the direct answer's text holds (None: the
    item has no gold snippet, only chunk ids, which no text can hold)."""
    if not item.gold_evidence:
        return None
    if outcome.refused:
        return 0.0
    text = outcome.answer if outcome.direct is None else outcome.direct
    held = fold(CITATION_MARKER.sub(" ", text))
    found = sum(fold_excerpt(gold.text) in held for gold in item.gold_evidence)
    return found / len(item.gold_evidence)


def leaks(
    item: KbItem,
    outcome: Outcome,
    visible: Mapping[str, bool],
) -> tuple[str, ...]:
    """The documents (corpus keys) leaked to the item's asker: cited though not
    ``visible`` to them, or a hidden document's gold snippet written in the answer."""
    out = [c.document for c in outcome.cited if not visible.get(c.document, False)]
    answer = fold(outcome.answer)
    out += [
        g.document
        for g in item.gold_evidence
        if not visible.get(g.document, True) and fold_excerpt(g.text) in answer
    ]
    return tuple(dict.fromkeys(out))


def score_item(item: KbItem, outcome: Outcome, visible: Mapping[str, bool]) -> ItemScore:
    """One item's scores; ``visible`` says, per corpus key, whether its asker may see it."""
    ranked: tuple[float | None, ...] = (None, None, None)
    searched: tuple[float | None, ...] = (None, None, None)
    hit = None
    if item.expected == "answer" and item.gold_count:
        ranked = ranking_scores(item, outcome.cited)
        searched = ranking_scores(item, outcome.searched)
        hit = answer_hit(item, outcome)
    leaked = leaks(item, outcome, visible)
    return ItemScore(
        item_id=item.id,
        category=item.category,
        expected=item.expected,
        refused=outcome.refused,
        recall=ranked[0],
        mrr=ranked[1],
        ndcg=ranked[2],
        leaks=len(leaked),
        leaked=leaked,
        citation_precision=outcome.citation_precision,
        citation_recall=outcome.citation_recall,
        error=outcome.error,
        search_recall=searched[0],
        search_mrr=searched[1],
        answer_hit=hit,
    )
