"""Thresholds and the dynamic top-K over a fused ranking, and ``fuse``: both in order.

Pure. The thresholds per mode are the policy's (``RetrievalPolicy.threshold_for``); the
fusions are ``retrieve/fusion.py``'s.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from askalong.retrieve.fusion import fused_ranking
from askalong.retrieve.pages import page_first
from askalong.retrieve.policy import RetrievalPolicy
from askalong.types import Hit


def apply_threshold(hits: Sequence[Hit], threshold: float) -> list[Hit]:
    """The hits with score >= ``threshold``, in their order."""
    return [hit for hit in hits if hit.score >= threshold]


def dynamic_top_k(
    hits: Sequence[Hit],
    k_max: int,
    *,
    floor: float = 0.0,
    min_ratio: float = 0.25,
    max_gap: float = 0.5,
) -> list[Hit]:
    """The best hits up to where the score drops sharply, never more than ``k_max``.

    Scores are measured above ``floor`` (the threshold the hits passed), relative to the
    best: with ``span = best - floor``, hit i is kept while

        score_i - floor >= min_ratio · span   and   score_(i-1) - score_i <= max_gap · span

    The best hit is always kept (when ``k_max >= 1`` and there is any hit).
    """
    ordered = sorted(hits, key=lambda hit: -hit.score)[: max(k_max, 0)]
    if not ordered:
        return []
    span = ordered[0].score - floor
    kept = [ordered[0]]
    for hit in ordered[1:]:
        if span > 0 and _drops(kept[-1].score, hit.score, floor, span, min_ratio, max_gap):
            break
        kept.append(hit)
    return kept


def _drops(
    previous: float, score: float, floor: float, span: float, min_ratio: float, max_gap: float
) -> bool:
    return score - floor < min_ratio * span or previous - score > max_gap * span


def fuse(
    keyword_hits: Sequence[Hit] | None,
    vector_hits: Sequence[Hit] | None,
    policy: RetrievalPolicy,
    *,
    k_max: int,
    language: str = "en",
    unembedded: Collection[str] = frozenset(),
    by_pages: bool = False,
    titles: Collection[str] = frozenset(),
    across: bool = False,
) -> list[Hit]:
    """Fuse what the routes found, then threshold and cut to a dynamic top-K.

    Both routes with hits: the policy's fusion and its fused threshold. One route empty
    or None (not ready, or failed): that route alone on the ``1 / (k + rank)`` scale with
    the single-route (or keyword-only) threshold; the hits' mode names the route.
    ``by_pages`` (a question asked of a collection): the scores decide how many hits
    are kept, the page-first order of the whole ranking (``retrieve/pages.py``) which.
    ``titles``: title chunks, ranked after their document's next chunk. ``across``: the
    documents are in the other language than the query (``fused_ranking``).
    """
    # The threshold keeps a prefix of the ranking and the top-K at most ``k_max`` of it:
    # only those hits are made (all of them when the pages reorder the whole ranking).
    fused = fused_ranking(
        keyword_hits or (),
        vector_hits or (),
        policy,
        language=language,
        unembedded=unembedded,
        titles=titles,
        limit=None if by_pages else max(k_max, 1),
        across=across,
    )
    return cut_ranking(fused, policy, k_max, by_pages=by_pages)


def cut_ranking(
    fused: Sequence[Hit], policy: RetrievalPolicy, k_max: int, *, by_pages: bool = False
) -> list[Hit]:
    """A fused ranking thresholded and cut to a dynamic top-K (``fuse``'s second half);
    ``fused`` may be the ranking's first ``k_max`` hits unless ``by_pages``."""
    if not fused:
        return []
    threshold = policy.threshold_for(fused[0].mode)
    if fused[0].mode == "hybrid" and policy.fusion == "zscore":
        # z-scores are relative to the candidates: a short list (a small document) cannot
        # reach z = 1, so the threshold cuts the tail but never drops the best hit.
        threshold = min(threshold, fused[0].score)
    kept = dynamic_top_k(
        apply_threshold(fused, threshold),
        k_max,
        floor=threshold,
        min_ratio=policy.top_k_min_ratio,
        max_gap=policy.top_k_max_gap,
    )
    if not by_pages:
        return kept
    # The count is the scores'; a page's best chunk may rank below the threshold chunk
    # by chunk (a long page's many chunks above it), so the pages come from all of them.
    return page_first(fused, share=policy.page_share)[: len(kept)]
