"""A follow-up's keyword hits re-ordered by its thread's context (the previous turns).

Pure, over ``Hit`` lists; the searcher (``retrieve/search.py``) runs the context's
keyword search beside the question's and calls ``with_context``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from askalong.retrieve.fusion import _as_route, _distinct, _route_score
from askalong.types import Hit


def with_context(hits: Sequence[Hit], context: Sequence[Hit], weight: float) -> list[Hit]:
    """A follow-up's keyword hits with its thread's context searched beside it:

        bm25'(d) = bm25(question, d) + weight · bm25(context, d)

    re-ranked; mode "keyword". The context carries a lower weight than the question and
    only re-orders the chunks the question itself finds, so it decides only what the
    question leaves open ("and the harder ones?" after a question about puzzles); it never
    brings back the previous answer's own passage, which matches its words best of all.
    A question that finds nothing alone ("and then?") gets the context's hits."""
    question = {hit.chunk_id: hit for hit in _distinct(hits)}
    extra = {hit.chunk_id: _route_score(hit, "keyword") for hit in _distinct(context)}
    merged = question or {h.chunk_id: h for h in _distinct(context)}

    def score(chunk_id: str) -> float:
        own = _route_score(question[chunk_id], "keyword") if chunk_id in question else 0.0
        return own + weight * extra.get(chunk_id, 0.0)

    ordered = sorted(merged, key=lambda chunk_id: (-score(chunk_id), chunk_id))
    return [
        _as_route(replace(merged[c], keyword_score=score(c)), "keyword", rank, score(c))
        for rank, c in enumerate(ordered, start=1)
    ]
