"""Ranking math over ``Hit``s, one import for the concepts kept in their own modules.

- ``retrieve/policy.py``: ``RetrievalPolicy``, the knobs (fusion, shares, thresholds, top-K).
- ``retrieve/fusion.py``: z-score, RRF and weighted fusion, ``WeakVector``, single-route
  lists on the fused scale, ``fused_ranking``.
- ``retrieve/cutoff.py``: thresholds, the dynamic top-K and ``fuse`` (fusion, threshold,
  cut in order).
- ``retrieve/followup.py``: ``with_context``, a follow-up's hits re-ordered by its thread.

The names stay importable from here (callers and tests written before the split).
"""

from __future__ import annotations

from askalong.retrieve.cutoff import apply_threshold, dynamic_top_k, fuse
from askalong.retrieve.followup import with_context
from askalong.retrieve.fusion import (
    Route,
    WeakVector,
    fused_ranking,
    reciprocal_rank_fusion,
    single_route,
    weighted_fusion,
    zscore_fusion,
)
from askalong.retrieve.policy import FUSIONS, Fusion, RetrievalPolicy

__all__ = [
    "FUSIONS",
    "Fusion",
    "RetrievalPolicy",
    "Route",
    "WeakVector",
    "apply_threshold",
    "dynamic_top_k",
    "fuse",
    "fused_ranking",
    "reciprocal_rank_fusion",
    "single_route",
    "weighted_fusion",
    "with_context",
    "zscore_fusion",
]
