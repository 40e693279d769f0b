"""Pages ranked as well as chunks, for a question asked of a collection of many pages.

A manual added as a folder is a collection of pages (the PostgreSQL manual: 1,169
documents). Ranked chunk by chunk, one long page whose many chunks each share a word
with the question fills the first places, and the page that answers never shows. So the
pages are ranked first, each by its best chunk and, a little, its next best ones (a page
where several chunks match is a better bet than one chunk that repeats a word), and the
list shows each page's best chunk in that order, then every other chunk in its own order:

    z(c) = (s(c) - mean) / std       over the ranking's own scores (any route's scale)
    page(p) = z(best_p) + share · Σ_i decay^i · max(z(c_i), 0)   over p's next best chunks
    order: best chunk of each page by page(p), then the rest by s(c)

Measured on the PostgreSQL manual's dev questions (``benchmarks/data/
long_manual_dev_questions.json``, keyword route): hit@10 0.67 chunk by chunk, 0.71 with
each page's best chunk first (share 0), 0.83 at share 0.2 and 0.3, 0.79 at 0.1 and 0.5.
Not for a few documents or a library of articles: on XQuAD (48 articles of 5
paragraphs, the answer one paragraph of them) one chunk per article first costs R@5 0.99
-> 0.96, so the searcher applies it only when a question names many documents
(``RetrievalPolicy.pages_from``). Scores are left as they were; only the order changes.

What suits a list of pages does not suit the answerer: the sentence that answers is
often a page's second to fifth chunk (the top page's best chunk repeats the question's
words in its synopsis or an example), and page-first order puts it behind every other
page's best chunk. So the answerer reads ``joined``: the best ``best_pages`` pages
searched again chunk by chunk, then the other pages' best chunks. On the manual's
answer-level dev questions (``tests/data/answer_dev_manual.jsonl``, 27, keyword route) a
gold phrase is in the answerer's ten chunks for 10 / 27 in page-first order, 17 / 27 with
the best page searched again, 20 / 27 with the best two, 18-19 / 27 with three to five.
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.retrieve.fusion import _z_scores
from askalong.types import Hit


def page_first(
    hits: Sequence[Hit], *, share: float, siblings: int = 2, decay: float = 0.5
) -> list[Hit]:
    """``hits`` (best first) with each page's best chunk first, pages by their score."""
    if not hits:
        return []
    values = _z_scores([_own_score(hit) for hit in hits])
    by_page: dict[str, list[float]] = {}
    for hit, value in zip(hits, values, strict=True):
        by_page.setdefault(hit.document_id, []).append(value)
    page_score = {
        page: _page_score(sorted(scores, reverse=True), share, siblings, decay)
        for page, scores in by_page.items()
    }
    firsts: list[Hit] = []
    rest: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        (rest if hit.document_id in seen else firsts).append(hit)
        seen.add(hit.document_id)
    firsts.sort(key=lambda hit: -page_score[hit.document_id])  # stable: ties keep order
    return firsts + rest


def _page_score(ordered: Sequence[float], share: float, siblings: int, decay: float) -> float:
    others = ordered[1 : 1 + siblings]
    return ordered[0] + share * sum(max(z, 0.0) * decay**i for i, z in enumerate(others))


def _own_score(hit: Hit) -> float:
    """The score on the list's own scale: a single route's list carries ``1 / (k + rank)``
    as its score, so its route's score is read instead."""
    if hit.mode == "keyword" and hit.keyword_score is not None:
        return hit.keyword_score
    if hit.mode == "vector" and hit.vector_score is not None:
        return hit.vector_score
    return hit.score


def best_pages(hits: Sequence[Hit], count: int) -> tuple[str, ...]:
    """The first ``count`` distinct pages (documents) of a page-first list."""
    return tuple(dict.fromkeys(hit.document_id for hit in hits))[:count]


def joined(first: Sequence[Hit], then: Sequence[Hit], k: int) -> list[Hit]:
    """The answerer's ``k`` chunks: ``first`` (the best pages' own ranking), then ``then``
    (the page-first list), each chunk once."""
    merged = {hit.chunk_id: hit for hit in [*first, *then]}
    return list(merged.values())[:k]
