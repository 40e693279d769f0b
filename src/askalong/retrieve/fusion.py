"""Fusion of the keyword and vector routes' ``Hit`` lists into one ranking.

Pure functions, each citing its formula. Three fusions of the keyword (BM25) and vector
(cosine) routes:

- ``zscore`` (the default): each route's scores standardised over the route's own list,
  ``z = (s - mean) / std``, then ``fused = share · z_bm25 + (1 - share) · z_cos`` with
  the keyword share chosen by the query's language (0.3 English, 0.5 Chinese: the vector
  route is the weaker one on Chinese). Unlike RRF it keeps how far ahead a route's
  best hit is, which is what decides top-1 when the routes disagree. The threshold 1.0
  asks for a hit one standard deviation above the candidates' mean (on XQuAD it keeps a
  median 8–9 hits and every gold paragraph the fusion ranks in its top 5; the gold
  hit's fused z is above 2.3 for 99% of questions).
- ``rrf``: ``fused = Σ_route w_route / (k + rank_route)``; with k = 60 and w = 1 the
  best possible is 2/61 ≈ 0.0328 and the threshold 0.028 asks for roughly the top 11 of
  both routes.
- ``weighted``: a convex combination of min-max normalised scores.

When only one route answered (the vector route may still be filling in, or may have
failed) its hits go on the reciprocal-rank scale ``1 / (k + rank)``, and the threshold
0.014 ≈ 1/71 keeps its top 11 whatever the fusion.

Measured on XQuAD (paragraph chunks, R@1): en keyword 0.938, vector 0.931, RRF 0.954,
z-score 0.965; zh (with the grams field) keyword 0.937, vector 0.891, RRF 0.935,
z-score 0.955. ``benchmarks/retrieval.py`` has the full table.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from askalong.retrieve.policy import RetrievalPolicy
from askalong.retrieve.titles import titles_last
from askalong.route_hits import RouteHits
from askalong.types import Hit

Route = Literal["keyword", "vector"]
_NO_RANK = 1 << 30  # a route that missed the chunk
_Evidence = tuple[str, float, int]  # one route's (document id, score, rank) for a chunk
# A fused chunk before it is a Hit, in ranking order as it stands: (-fused score, best
# rank of any route, chunk id, document id, keyword score, rank, vector score, rank).
_Scored = tuple[float, int, str, str, float | None, int | None, float | None, int | None]


@dataclass(frozen=True)
class WeakVector:
    """When the vector route is weak for a query, lean on the keyword route.

    Both routes' lists are standardised anyway; their best hits' z-scores say how far
    each route's favourite stands out from its other candidates. A flat cosine list (the
    multilingual model unsure, as on Traditional Chinese) has a low top z; a confident
    BM25 top a high one. When the routes also disagree on the best chunk,

        lean = clamp((z_bm25(top_bm25) - z_cos(top_cos) - margin) / span, 0, 1)
        share' = share + shift · lean · (1 - share)

    Agreeing routes, or a vector route as sure as the keyword one, keep the share."""

    shift: float
    margin: float
    span: float

    def share(
        self,
        share: float,
        keyword: Sequence[Hit],
        vector: Sequence[Hit],
        keyword_z: Mapping[str, float],
        vector_z: Mapping[str, float],
    ) -> float:
        if self.shift <= 0 or not keyword or not vector:
            return share
        top_keyword, top_vector = keyword[0].chunk_id, vector[0].chunk_id
        if top_keyword == top_vector:
            return share
        gap = keyword_z[top_keyword] - vector_z[top_vector] - self.margin
        lean = min(max(gap / self.span, 0.0), 1.0)
        return share + self.shift * lean * (1.0 - share)


def zscore_fusion(
    keyword: Sequence[Hit],
    vector: Sequence[Hit],
    keyword_share: float = 0.5,
    *,
    unembedded: Collection[str] = frozenset(),
    weak: WeakVector | None = None,
    limit: int | None = None,
) -> list[Hit]:
    """Score fusion of standardised route scores (z-score normalisation, as in Lee 1997's
    comparison of normalisations for CombSUM):

        z_route(d) = (s_route(d) - mean_route) / std_route   over the route's own list
        score(d) = share · z_bm25(d) + (1 - share) · z_cos(d)

    A route that missed ``d`` counts its lowest z (d ranks below everything it listed).
    A route whose scores are all equal has z = 0 throughout. A chunk of a document in
    ``unembedded`` (no vectors yet: the vector route could not see it) scores its
    keyword z alone, so a document just added is not pushed down while its vectors
    fill in. With ``weak``, the share leans toward the keyword route when the vector
    route looks weak for this query (``weak_vector``). Mode "hybrid"; with ``limit``,
    the first ``limit`` hits only.
    """
    by_keyword, by_vector = _route_evidence(keyword, "keyword"), _route_evidence(vector, "vector")
    keyword_z, vector_z = _by_chunk(by_keyword), _by_chunk(by_vector)
    if weak is not None:
        keyword_share = weak.share(keyword_share, keyword, vector, keyword_z, vector_z)
    keyword_floor = min(keyword_z.values(), default=0.0)
    vector_floor = min(vector_z.values(), default=0.0)

    def score(chunk_id: str, document_id: str, *_ranks: int | None) -> float:
        kw = keyword_z.get(chunk_id, keyword_floor)
        if document_id in unembedded:
            return kw
        vec = vector_z.get(chunk_id, vector_floor)
        return keyword_share * kw + (1.0 - keyword_share) * vec

    return _rescored(by_keyword, by_vector, score, limit)


def _by_chunk(evidence: Mapping[str, _Evidence]) -> dict[str, float]:
    """Each chunk id -> its standardised route score."""
    scores = _z_scores([score for _, score, _ in evidence.values()])
    return dict(zip(evidence, scores, strict=True))


def _z_scores(values: Sequence[float]) -> list[float]:
    """(v - mean) / population std; all zeros when the values do not vary."""
    if not values:
        return []
    mean = math.fsum(values) / len(values)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
    if std == 0.0:
        return [0.0] * len(values)
    return [(value - mean) / std for value in values]


def reciprocal_rank_fusion(
    keyword: Sequence[Hit],
    vector: Sequence[Hit],
    k: int = 60,
    *,
    weights: tuple[float, float] = (1.0, 1.0),
    limit: int | None = None,
) -> list[Hit]:
    """Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009), weighted per route:

        score(d) = Σ_route w_route / (k + rank_route(d))

    summed over the routes that found ``d``; ``weights`` are (keyword, vector). Merged hits
    keep both routes' scores and ranks; mode "hybrid"; with ``limit``, the first
    ``limit`` hits only.
    """
    keyword_weight, vector_weight = weights

    def score(
        _chunk: str, _document: str, keyword_rank: int | None, vector_rank: int | None
    ) -> float:
        total = 0.0
        if keyword_rank is not None:
            total += keyword_weight / (k + keyword_rank)
        if vector_rank is not None:
            total += vector_weight / (k + vector_rank)
        return total

    evidence = _route_evidence(keyword, "keyword"), _route_evidence(vector, "vector")
    return _rescored(*evidence, score, limit)


def weighted_fusion(
    keyword: Sequence[Hit], vector: Sequence[Hit], weight: float = 0.5, *, limit: int | None = None
) -> list[Hit]:
    """Convex combination of min-max normalised route scores:

        norm(s) = (s - min) / (max - min)   (1 when all of a route's scores are equal)
        score(d) = weight · norm(bm25(d)) + (1 - weight) · norm(cosine(d))

    A route that missed ``d`` adds 0. Mode "hybrid"; with ``limit``, the first ``limit``
    hits only.
    """
    keyword_norm = _min_max([_route_score(hit, "keyword") for hit in keyword])
    vector_norm = _min_max([_route_score(hit, "vector") for hit in vector])
    by_chunk_k = {hit.chunk_id: norm for hit, norm in zip(keyword, keyword_norm, strict=True)}
    by_chunk_v = {hit.chunk_id: norm for hit, norm in zip(vector, vector_norm, strict=True)}

    def score(chunk_id: str, *_rest: object) -> float:
        kw = by_chunk_k.get(chunk_id, 0.0)
        return weight * kw + (1.0 - weight) * by_chunk_v.get(chunk_id, 0.0)

    evidence = _route_evidence(keyword, "keyword"), _route_evidence(vector, "vector")
    return _rescored(*evidence, score, limit)


def single_route(
    hits: Sequence[Hit], route: Route, k: int = 60, *, limit: int | None = None
) -> list[Hit]:
    """One route's hits on the fused scale: score = 1 / (k + rank); mode = ``route``."""
    if isinstance(hits, RouteHits) and hits.route == route:
        # Already in rank order, one hit a chunk: only the first ``limit`` are made.
        found = itertools.islice(hits.evidence().items(), limit)
        return [
            _route_hit(chunk, document, value, rank, route, k)
            for chunk, (document, value, rank) in found
        ]
    out = []
    for position, hit in enumerate(_distinct(hits), start=1):
        rank = _route_rank(hit, route) or position
        out.append(_as_route(hit, route, rank, score=1.0 / (k + rank)))
    return _ranked(out)[:limit]


def _route_evidence(hits: Sequence[Hit], route: Route) -> dict[str, _Evidence]:
    """Chunk id -> (document id, ``route``'s score, rank) of each chunk's first hit; the
    rank is the hit's own for that route, else its place among the distinct chunks.
    A route's own hits are read as the columns they are (no ``Hit`` made)."""
    if isinstance(hits, RouteHits) and hits.route == route:
        return hits.evidence()
    found: dict[str, _Evidence] = {}
    for hit in hits:
        if hit.chunk_id not in found:
            rank = _route_rank(hit, route) or len(found) + 1
            found[hit.chunk_id] = (hit.document_id, _route_score(hit, route), rank)
    return found


def _rescored(
    by_keyword: Mapping[str, _Evidence],
    by_vector: Mapping[str, _Evidence],
    score: Callable[[str, str, int | None, int | None], float],
    limit: int | None = None,
) -> list[Hit]:
    """One hybrid hit per chunk, keyword finds first (each route's score and 1-based
    rank, None where it missed the chunk), scored by ``score(chunk id, document id,
    keyword rank, vector rank)``, ranked as ``_ranked`` ranks. Every chunk is scored
    and ranked as a plain tuple; only the first ``limit`` become ``Hit``s (a search
    returns a dozen of ~300: building hits was most of fusing)."""
    scored: list[_Scored] = []
    for chunk_id, (document_id, keyword_score, keyword_rank) in by_keyword.items():
        seen = by_vector.get(chunk_id)
        vector_score, vector_rank = (seen[1], seen[2]) if seen else (None, None)
        fused = score(chunk_id, document_id, keyword_rank, vector_rank)
        best = min(keyword_rank, vector_rank or _NO_RANK)
        scored.append((-fused, best, chunk_id, document_id,
                       keyword_score, keyword_rank, vector_score, vector_rank))  # fmt: skip
    for chunk_id, (document_id, vector_score, vector_rank) in by_vector.items():
        if chunk_id not in by_keyword:
            fused = score(chunk_id, document_id, None, vector_rank)
            scored.append((-fused, vector_rank, chunk_id, document_id,
                           None, None, vector_score, vector_rank))  # fmt: skip
    scored.sort()  # chunk ids differ, so the order is decided before the document id
    return [
        Hit(chunk, document, -negated, "hybrid", keyword_score, keyword_rank, vector_score, rank)
        for negated, _, chunk, document, keyword_score, keyword_rank, vector_score, rank in (
            scored[:limit]
        )
    ]


def _route_hit(
    chunk_id: str, document_id: str, value: float, rank: int, route: Route, k: int
) -> Hit:
    """A chunk ``route`` found at ``rank`` with score ``value``, on the fused scale."""
    score = 1.0 / (k + rank)
    if route == "keyword":
        return Hit(chunk_id, document_id, score, route, keyword_score=value, keyword_rank=rank)
    return Hit(chunk_id, document_id, score, route, vector_score=value, vector_rank=rank)


def _as_route(hit: Hit, route: Route, rank: int, score: float) -> Hit:
    """``hit`` as found by ``route`` alone: only that route's evidence is kept."""
    value = _route_score(hit, route)
    if route == "keyword":
        return Hit(
            hit.chunk_id, hit.document_id, score, route, keyword_score=value, keyword_rank=rank
        )
    return Hit(hit.chunk_id, hit.document_id, score, route, vector_score=value, vector_rank=rank)


def _route_score(hit: Hit, route: Route) -> float:
    value = hit.keyword_score if route == "keyword" else hit.vector_score
    return hit.score if value is None else value


def _route_rank(hit: Hit, route: Route) -> int | None:
    return hit.keyword_rank if route == "keyword" else hit.vector_rank


def _distinct(hits: Sequence[Hit]) -> list[Hit]:
    """The first occurrence of each chunk (a route lists a chunk once)."""
    seen: dict[str, Hit] = {}
    for hit in hits:
        seen.setdefault(hit.chunk_id, hit)
    return list(seen.values())


def _min_max(values: Sequence[float]) -> list[float]:
    if not values:
        return []
    low, high = min(values), max(values)
    if high == low:
        return [1.0] * len(values)
    return [(value - low) / (high - low) for value in values]


def _ranked(hits: list[Hit]) -> list[Hit]:
    """Best score first; ties go to the better best rank of any route, then to chunk id."""
    return sorted(hits, key=_rank_key)


def _rank_key(hit: Hit) -> tuple[float, int, str]:
    # Ranks are 1-based: 0 never stands for a rank.
    best = min(hit.keyword_rank or _NO_RANK, hit.vector_rank or _NO_RANK)
    return (-hit.score, best, hit.chunk_id)


def fused_ranking(
    keyword: Sequence[Hit],
    vector: Sequence[Hit],
    policy: RetrievalPolicy,
    *,
    language: str = "en",
    unembedded: Collection[str] = frozenset(),
    titles: Collection[str] = frozenset(),
    limit: int | None = None,
    across: bool = False,
) -> list[Hit]:
    """The full fused list, best first, before any threshold (evaluation ranks this).
    ``language`` is the query's (``askalong.text.tokens.detect_language``); ``across``:
    the documents searched are in the other language (``RetrievalPolicy.keyword_share``);
    ``unembedded`` the documents the vector route could not search (see
    ``zscore_fusion``); ``titles`` the title chunks ranked after their document's next
    chunk (``retrieve/titles.py``).
    ``limit``: its first ``limit`` hits only (the whole list is still ranked, and made
    whole when ``titles`` may move a chunk down)."""
    made = None if titles else limit
    fused = _fused(keyword, vector, policy, language, unembedded, made, across)
    return titles_last(fused, titles)[:limit]


def _fused(
    keyword: Sequence[Hit],
    vector: Sequence[Hit],
    policy: RetrievalPolicy,
    language: str,
    unembedded: Collection[str],
    limit: int | None,
    across: bool,
) -> list[Hit]:
    if not vector:
        return single_route(keyword, "keyword", policy.rrf_k, limit=limit)
    if not keyword:
        return single_route(vector, "vector", policy.rrf_k, limit=limit)
    if policy.fusion == "zscore":
        share = policy.keyword_share(language, across=across)
        weak = WeakVector(
            policy.weak_vector_shift, policy.weak_vector_margin, policy.weak_vector_span
        )
        return zscore_fusion(keyword, vector, share, unembedded=unembedded, weak=weak, limit=limit)
    if policy.fusion == "weighted":
        return weighted_fusion(keyword, vector, policy.weighted_keyword_share, limit=limit)
    weights = (policy.keyword_weight, policy.vector_weight)
    return reciprocal_rank_fusion(keyword, vector, policy.rrf_k, weights=weights, limit=limit)
