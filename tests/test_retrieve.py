"""Fusion, thresholds, dynamic top-K and the route fallbacks, checked by hand."""

from __future__ import annotations

import pytest

from askalong.errors import ConfigError
from askalong.retrieve import (
    RetrievalPolicy,
    apply_threshold,
    dynamic_top_k,
    fuse,
    reciprocal_rank_fusion,
    single_route,
    weighted_fusion,
)
from askalong.types import Hit


def keyword_hits(*chunk_ids: str, scores: list[float] | None = None) -> list[Hit]:
    values = scores or [10.0 - i for i in range(len(chunk_ids))]
    return [
        Hit(c, "doc", values[i], "keyword", keyword_score=values[i], keyword_rank=i + 1)
        for i, c in enumerate(chunk_ids)
    ]


def vector_hits(*chunk_ids: str, scores: list[float] | None = None) -> list[Hit]:
    values = scores or [0.9 - 0.1 * i for i in range(len(chunk_ids))]
    return [
        Hit(c, "doc", values[i], "vector", vector_score=values[i], vector_rank=i + 1)
        for i, c in enumerate(chunk_ids)
    ]


def scored(*pairs: tuple[str, float]) -> list[Hit]:
    return [Hit(chunk, "doc", score, "hybrid") for chunk, score in pairs]


# ----------------------------------------------------------------------------- RRF


def test_rrf_sums_reciprocal_ranks_by_hand() -> None:
    fused = reciprocal_rank_fusion(keyword_hits("a", "b", "c"), vector_hits("c", "a", "d"), k=60)
    by_id = {hit.chunk_id: hit for hit in fused}
    assert by_id["a"].score == pytest.approx(1 / 61 + 1 / 62)
    assert by_id["b"].score == pytest.approx(1 / 62)
    assert by_id["c"].score == pytest.approx(1 / 63 + 1 / 61)
    assert by_id["d"].score == pytest.approx(1 / 63)
    assert [hit.chunk_id for hit in fused] == ["a", "c", "b", "d"]
    assert {hit.mode for hit in fused} == {"hybrid"}


def test_rrf_keeps_both_routes_evidence() -> None:
    fused = reciprocal_rank_fusion(
        keyword_hits("a", "b", scores=[7.5, 3.0]), vector_hits("b", scores=[0.8])
    )
    b = next(hit for hit in fused if hit.chunk_id == "b")
    assert (b.keyword_score, b.keyword_rank, b.vector_score, b.vector_rank) == (3.0, 2, 0.8, 1)
    a = next(hit for hit in fused if hit.chunk_id == "a")
    assert (a.keyword_rank, a.vector_score, a.vector_rank) == (1, None, None)


def test_rrf_route_weights() -> None:
    fused = reciprocal_rank_fusion(
        keyword_hits("a", "b"), vector_hits("b", "a"), k=10, weights=(2.0, 1.0)
    )
    by_id = {hit.chunk_id: hit.score for hit in fused}
    assert by_id["a"] == pytest.approx(2 / 11 + 1 / 12)
    assert by_id["b"] == pytest.approx(2 / 12 + 1 / 11)
    assert fused[0].chunk_id == "a"  # the favoured keyword route breaks the symmetry


def test_rrf_uses_list_position_when_a_hit_has_no_rank() -> None:
    bare = [Hit("x", "doc", 5.0, "keyword"), Hit("y", "doc", 4.0, "keyword")]
    fused = reciprocal_rank_fusion(bare, [], k=60)
    assert [(hit.chunk_id, hit.keyword_rank) for hit in fused] == [("x", 1), ("y", 2)]
    assert fused[1].keyword_score == 4.0


def test_rrf_ties_prefer_the_better_single_rank() -> None:
    # k = 0: "a" at ranks (2, 2) scores 1/2 + 1/2 = 1, as do "b" and "x" at rank 1 of one route.
    fused = reciprocal_rank_fusion(keyword_hits("b", "a"), vector_hits("x", "a"), k=0)
    assert [hit.score for hit in fused] == [pytest.approx(1.0)] * 3
    assert [hit.chunk_id for hit in fused] == ["b", "x", "a"]


# ----------------------------------------------------------------------------- weighted


def test_weighted_fusion_min_max_by_hand() -> None:
    keyword = keyword_hits("a", "b", "c", scores=[10.0, 6.0, 2.0])
    vector = vector_hits("c", "a", scores=[0.9, 0.5])
    fused = weighted_fusion(keyword, vector, weight=0.25)
    by_id = {hit.chunk_id: hit.score for hit in fused}
    # keyword norm: a 1, b .5, c 0; vector norm: c 1, a 0
    assert by_id["a"] == pytest.approx(0.25 * 1.0 + 0.75 * 0.0)
    assert by_id["b"] == pytest.approx(0.25 * 0.5)
    assert by_id["c"] == pytest.approx(0.25 * 0.0 + 0.75 * 1.0)
    assert [hit.chunk_id for hit in fused] == ["c", "a", "b"]


def test_weighted_fusion_equal_scores_normalise_to_one() -> None:
    fused = weighted_fusion(keyword_hits("a", scores=[3.0]), vector_hits("b", scores=[0.2]))
    assert [hit.score for hit in fused] == [pytest.approx(0.5), pytest.approx(0.5)]


# ----------------------------------------------------------------------------- cut-offs


def test_apply_threshold_keeps_order_and_boundary() -> None:
    hits = scored(("a", 0.03), ("b", 0.028), ("c", 0.0279))
    assert [hit.chunk_id for hit in apply_threshold(hits, 0.028)] == ["a", "b"]


def test_dynamic_top_k_cuts_at_a_sharp_drop() -> None:
    hits = scored(("a", 1.0), ("b", 0.95), ("c", 0.9), ("d", 0.3), ("e", 0.29))
    assert [hit.chunk_id for hit in dynamic_top_k(hits, 5)] == ["a", "b", "c"]


def test_dynamic_top_k_never_exceeds_k_max() -> None:
    hits = scored(*[(str(i), 1.0 - 0.01 * i) for i in range(10)])
    assert len(dynamic_top_k(hits, 4)) == 4
    assert dynamic_top_k(hits, 0) == []


def test_dynamic_top_k_keeps_the_best_even_alone() -> None:
    hits = scored(("a", 0.5), ("b", 0.01))
    assert [hit.chunk_id for hit in dynamic_top_k(hits, 3)] == ["a"]
    assert dynamic_top_k([], 3) == []


def test_dynamic_top_k_measures_above_the_floor() -> None:
    hits = scored(("a", 0.0328), ("b", 0.0320), ("c", 0.0289))
    # Relative to 0, c is 88% of the best; above the 0.028 floor it is 19%: cut.
    assert len(dynamic_top_k(hits, 5)) == 3
    assert [hit.chunk_id for hit in dynamic_top_k(hits, 5, floor=0.028)] == ["a", "b"]


def test_dynamic_top_k_with_equal_scores_keeps_up_to_k_max() -> None:
    hits = scored(("a", 0.02), ("b", 0.02), ("c", 0.02))
    assert len(dynamic_top_k(hits, 2, floor=0.02)) == 2


def test_dynamic_top_k_gap_rule() -> None:
    hits = scored(("a", 1.0), ("b", 0.9), ("c", 0.35), ("d", 0.34))
    # c is above min_ratio (0.25) but falls 0.55 from b: a sharp drop.
    assert [hit.chunk_id for hit in dynamic_top_k(hits, 5)] == ["a", "b"]
    assert len(dynamic_top_k(hits, 5, max_gap=0.6)) == 4


# ----------------------------------------------------------------------------- fallbacks


def test_fuse_both_routes_uses_fused_threshold() -> None:
    policy = RetrievalPolicy()
    keyword = keyword_hits(*"abcdefghijklmnop")
    vector = vector_hits(*"bacdefghijklmnop")
    result = fuse(keyword, vector, policy, k_max=5)
    assert [hit.mode for hit in result] == ["hybrid"] * len(result)
    assert 1 <= len(result) <= 5
    assert all(hit.score >= policy.fused_threshold for hit in result)
    assert {hit.chunk_id for hit in result[:2]} == {"a", "b"}


def test_fuse_drops_one_route_finds_when_the_other_agrees_elsewhere() -> None:
    # "z" is the keyword route's top hit but unknown to the vector route: 1/61 < 0.028.
    result = fuse(keyword_hits("z", "a"), vector_hits("a", "b"), RetrievalPolicy(), k_max=5)
    assert [hit.chunk_id for hit in result] == ["a"]


def test_fuse_keyword_none_falls_back_to_vector_only() -> None:
    result = fuse(None, vector_hits(*"abcdefghijklmno"), RetrievalPolicy(), k_max=5)
    assert result and {hit.mode for hit in result} == {"vector"}
    assert result[0].score == pytest.approx(1 / 61)
    assert result[0].vector_score == pytest.approx(0.9)
    assert all(hit.keyword_rank is None for hit in result)


def test_fuse_vector_empty_falls_back_to_keyword_only() -> None:
    result = fuse(keyword_hits(*"abcdef"), [], RetrievalPolicy(), k_max=4)
    assert [hit.chunk_id for hit in result] == ["a", "b", "c", "d"]
    assert {hit.mode for hit in result} == {"keyword"}


def test_single_route_threshold_cuts_deep_ranks() -> None:
    # Rank 12 scores 1/72 < 0.014: a lone route's 12th hit never passes.
    hits = single_route(keyword_hits(*[f"c{i}" for i in range(20)]), "keyword")
    passed = apply_threshold(hits, RetrievalPolicy().single_route_threshold)
    assert len(passed) == 11


def test_keyword_only_threshold_is_configurable() -> None:
    # min_ratio 0 and max_gap 1 turn the dynamic cut off, isolating the threshold.
    strict = RetrievalPolicy(keyword_only_threshold=1 / 62, top_k_min_ratio=0, top_k_max_gap=1)
    result = fuse(keyword_hits(*"abcdef"), None, strict, k_max=5)
    assert [hit.chunk_id for hit in result] == ["a", "b"]
    vector_result = fuse(None, vector_hits(*"abcdef"), strict, k_max=5)
    assert len(vector_result) == 5


def test_fuse_nothing_found() -> None:
    assert fuse(None, None, RetrievalPolicy(), k_max=5) == []
    assert fuse([], [], RetrievalPolicy(), k_max=5) == []


def test_fuse_weighted_policy() -> None:
    policy = RetrievalPolicy(
        fusion="weighted", weighted_threshold=0.5, top_k_min_ratio=0, top_k_max_gap=1
    )
    keyword = keyword_hits("a", "b", "c", scores=[9.0, 5.0, 1.0])
    vector = vector_hits("b", "c", "a", scores=[0.9, 0.6, 0.3])
    result = fuse(keyword, vector, policy, k_max=5)
    # a: .5*1 + .5*0 = .5; b: .5*.5 + .5*1 = .75; c: 0 + .5*.5 = .25
    assert [(hit.chunk_id, round(hit.score, 6)) for hit in result] == [("b", 0.75), ("a", 0.5)]


def test_policy_defaults_and_validation() -> None:
    policy = RetrievalPolicy()
    assert (policy.keyword_limit, policy.vector_limit, policy.rrf_k) == (150, 150, 60)
    assert (policy.fused_threshold, policy.single_route_threshold) == (0.028, 0.014)
    assert (policy.k_max_read_along, policy.k_max_knowledge_base) == (4, 5)
    with pytest.raises(ConfigError, match="rrf, weighted"):
        RetrievalPolicy(fusion="max")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="k_max_read_along"):
        RetrievalPolicy(k_max_read_along=0)
    with pytest.raises(ConfigError, match="weighted_keyword_share"):
        RetrievalPolicy(weighted_keyword_share=1.5)
