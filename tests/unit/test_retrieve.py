"""Fusion, thresholds, dynamic top-K and the route fallbacks, checked by hand."""

from __future__ import annotations

import pytest

from askalong.errors import ConfigError
from askalong.retrieve.ranking import (
    RetrievalPolicy,
    WeakVector,
    apply_threshold,
    dynamic_top_k,
    fuse,
    reciprocal_rank_fusion,
    single_route,
    weighted_fusion,
    with_context,
    zscore_fusion,
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


# ----------------------------------------------------------------------------- z-score


def test_zscore_fusion_by_hand() -> None:
    # keyword 9, 5, 1 -> mean 5, std sqrt(32/3): z = ±1.2247, 0; vector 0.9, 0.6, 0.3 same shape.
    keyword = keyword_hits("a", "b", "c", scores=[9.0, 5.0, 1.0])
    vector = vector_hits("b", "c", "a", scores=[0.9, 0.6, 0.3])
    z = (32 / 3) ** -0.5 * 4
    result = zscore_fusion(keyword, vector, keyword_share=0.3)
    got = {hit.chunk_id: hit.score for hit in result}
    assert got["a"] == pytest.approx(0.3 * z - 0.7 * z)
    assert got["b"] == pytest.approx(0.7 * z)
    assert got["c"] == pytest.approx(-0.3 * z)
    assert [hit.chunk_id for hit in result] == ["b", "c", "a"]
    assert all(hit.mode == "hybrid" for hit in result)


def test_zscore_keeps_how_far_ahead_a_route_is() -> None:
    # RRF ties "a" and "b" (each first in one route); z-score sees that the keyword
    # route's "a" stands far above its list while the vector route's "b" barely leads.
    keyword = keyword_hits("a", "b", "c", "d", scores=[20.0, 5.0, 4.5, 4.0])
    vector = vector_hits("b", "a", "c", "d", scores=[0.81, 0.80, 0.70, 0.60])
    assert zscore_fusion(keyword, vector, 0.5)[0].chunk_id == "a"
    rrf = reciprocal_rank_fusion(keyword, vector)
    assert rrf[0].score == pytest.approx(rrf[1].score)


def test_zscore_missing_route_counts_its_lowest_and_flat_routes_are_zero() -> None:
    keyword = keyword_hits("a", "b", scores=[3.0, 3.0])  # no spread: z = 0
    vector = vector_hits("c", "d", scores=[0.9, 0.1])  # z = +1, -1
    got = {hit.chunk_id: hit.score for hit in zscore_fusion(keyword, vector, 0.5)}
    assert got == pytest.approx({"a": -0.5, "b": -0.5, "c": 0.5, "d": -0.5})


def test_zscore_share_follows_the_query_language() -> None:
    policy = RetrievalPolicy(zscore_keyword_share_en=0.2, zscore_keyword_share_zh=0.6)
    assert policy.keyword_share("en") == 0.2
    assert policy.keyword_share("und") == 0.2
    assert policy.keyword_share("zh") == 0.6
    assert policy.keyword_share("mixed") == pytest.approx(0.4)
    # "a" leads the keyword route, "b" the vector route, by the same margins.
    keyword = keyword_hits(*"abcdef", scores=[9.0, 3.0, 2.0, 2.0, 1.0, 1.0])
    vector = vector_hits(*"bacdef", scores=[0.9, 0.3, 0.2, 0.2, 0.1, 0.1])
    assert fuse(keyword, vector, policy, k_max=1, language="zh")[0].chunk_id == "a"
    assert fuse(keyword, vector, policy, k_max=1, language="en")[0].chunk_id == "b"


def test_zscore_threshold_never_drops_the_best_of_a_short_list() -> None:
    # Three candidates on which the routes disagree: nobody reaches z = 1 in the blend
    # (b: 0.7 * 1.22 = 0.86), yet the best comes back.
    keyword = keyword_hits("a", "b", "c", scores=[3.0, 2.0, 1.0])
    vector = vector_hits("b", "a", "c", scores=[0.9, 0.8, 0.7])
    result = fuse(keyword, vector, RetrievalPolicy(), k_max=5)
    assert result[0].chunk_id == "b"
    assert result[0].score == pytest.approx(0.7 * 1.5**0.5)


def test_zscore_threshold_cuts_the_tail() -> None:
    policy = RetrievalPolicy(top_k_min_ratio=0, top_k_max_gap=1)
    ids = [f"c{i}" for i in range(40)]
    keyword = keyword_hits(*ids, scores=[40.0 - i for i in range(40)])
    vector = vector_hits(*ids, scores=[0.9 - 0.01 * i for i in range(40)])
    result = fuse(keyword, vector, policy, k_max=40)
    # Both routes are linear in rank i: z_i = (19.5 - i) / 11.54 >= 1 for i <= 7.
    assert len(result) == 8
    assert all(hit.score >= policy.zscore_threshold for hit in result)
    assert [hit.chunk_id for hit in result] == ids[: len(result)]


# ----------------------------------------------------------------------------- fallbacks


def test_fuse_both_routes_uses_fused_threshold() -> None:
    policy = RetrievalPolicy(fusion="rrf")
    keyword = keyword_hits(*"abcdefghijklmnop")
    vector = vector_hits(*"bacdefghijklmnop")
    result = fuse(keyword, vector, policy, k_max=5)
    assert [hit.mode for hit in result] == ["hybrid"] * len(result)
    assert 1 <= len(result) <= 5
    assert all(hit.score >= policy.fused_threshold for hit in result)
    assert {hit.chunk_id for hit in result[:2]} == {"a", "b"}


def test_fuse_drops_one_route_finds_when_the_other_agrees_elsewhere() -> None:
    # "z" is the keyword route's top hit but unknown to the vector route: 1/61 < 0.028.
    policy = RetrievalPolicy(fusion="rrf")
    result = fuse(keyword_hits("z", "a"), vector_hits("a", "b"), policy, k_max=5)
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
    assert (policy.fusion, policy.zscore_threshold) == ("zscore", 1.0)
    assert (policy.fused_threshold, policy.single_route_threshold) == (0.028, 0.014)
    assert (policy.k_max_read_along, policy.k_max_knowledge_base) == (4, 5)
    with pytest.raises(ConfigError, match="zscore, rrf, weighted"):
        RetrievalPolicy(fusion="max")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="k_max_read_along"):
        RetrievalPolicy(k_max_read_along=0)
    with pytest.raises(ConfigError, match="weighted_keyword_share"):
        RetrievalPolicy(weighted_keyword_share=1.5)
    with pytest.raises(ConfigError, match="zscore_keyword_share_zh"):
        RetrievalPolicy(zscore_keyword_share_zh=-0.1)


def test_zscore_unembedded_documents_score_their_keyword_z_alone() -> None:
    # "new" is the keyword route's clear best but its document has no vectors yet.
    keyword = [
        Hit("new", "fresh", 9.0, "keyword", keyword_score=9.0, keyword_rank=1),
        *keyword_hits("a", "b", "c", scores=[3.0, 2.0, 1.0]),
    ]
    vector = vector_hits("a", "b", "c", scores=[0.9, 0.5, 0.1])
    pushed_down = zscore_fusion(keyword, vector, 0.3)
    assert pushed_down[0].chunk_id == "a"
    fair = zscore_fusion(keyword, vector, 0.3, unembedded={"fresh"})
    assert fair[0].chunk_id == "new"
    assert fair[0].score == pytest.approx((9.0 - 3.75) / 9.6875**0.5)


# ----------------------------------------------------------------------------- follow-ups


def test_context_adds_a_lower_weight_bm25() -> None:
    question = keyword_hits("trails", "puzzles", scores=[2.0, 1.5])
    context = keyword_hits("puzzles", "easy", scores=[4.0, 6.0])
    merged = with_context(question, context, 0.3)
    # "easy" (the previous answer's own chunk) is found by the context alone: left out
    assert [(h.chunk_id, h.keyword_rank) for h in merged] == [("puzzles", 1), ("trails", 2)]
    assert [h.keyword_score for h in merged] == pytest.approx([2.7, 2.0])
    assert all(h.mode == "keyword" and h.score == h.keyword_score for h in merged)


def test_a_question_finding_nothing_alone_gets_the_context_hits() -> None:
    context = keyword_hits("puzzles", "easy", scores=[4.0, 6.0])
    merged = with_context([], context, 0.3)
    assert [h.chunk_id for h in merged] == ["easy", "puzzles"]
    assert [h.keyword_score for h in merged] == pytest.approx([1.8, 1.2])


# ----------------------------------------------------------------------------- weak vectors


def test_a_flat_disagreeing_vector_route_leans_on_keyword() -> None:
    keyword = keyword_hits("a", "b", "c", "d", scores=[20.0, 5.0, 4.0, 3.0])  # a stands out
    flat = vector_hits("b", "c", "d", "a", scores=[0.801, 0.800, 0.799, 0.798])
    fixed = zscore_fusion(keyword, flat, 0.3)
    weak = WeakVector(shift=1.0, margin=0.0, span=1.0)
    leaning = zscore_fusion(keyword, flat, 0.3, weak=weak)
    assert fixed[0].chunk_id == "b" and leaning[0].chunk_id == "a"
    # Routes that agree keep the fixed share: the same ranking, the same scores.
    agreeing = vector_hits("a", "b", "c", "d", scores=[0.801, 0.800, 0.799, 0.798])
    assert zscore_fusion(keyword, agreeing, 0.3, weak=weak) == zscore_fusion(keyword, agreeing, 0.3)


def test_weak_vector_share() -> None:
    weak = WeakVector(shift=0.5, margin=0.5, span=2.0)
    keyword, vector = keyword_hits("a", "b"), vector_hits("b", "a")
    assert weak.share(0.3, keyword, vector, {"a": 2.5}, {"b": 1.0}) == pytest.approx(
        0.3 + 0.5 * 0.5 * 0.7
    )
    assert weak.share(0.3, keyword, vector, {"a": 1.0}, {"b": 1.0}) == 0.3
    assert weak.share(0.3, keyword, vector, {"a": 9.0}, {"b": 0.0}) == pytest.approx(0.65)
    with pytest.raises(ConfigError):
        RetrievalPolicy(weak_vector_span=0.0)
    with pytest.raises(ConfigError):
        RetrievalPolicy(weak_vector_shift=1.5)


def test_a_hit_is_a_frozen_value_whatever_builds_it() -> None:
    import dataclasses

    hit = Hit("c1", "doc", 0.5, "vector", None, None, 0.5, 1)
    assert hit == Hit("c1", "doc", 0.5, "vector", vector_score=0.5, vector_rank=1)
    assert hash(hit) == hash(Hit("c1", "doc", 0.5, "vector", vector_score=0.5, vector_rank=1))
    assert dataclasses.replace(hit, score=0.9).vector_rank == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        hit.score = 1.0  # type: ignore[misc]


def test_fusion_keeps_each_routes_evidence_once_per_chunk() -> None:
    keyword = [*keyword_hits("a", "b"), keyword_hits("a")[0]]  # a listed twice: the first counts
    vector = vector_hits("b", "c")
    fused = {hit.chunk_id: hit for hit in reciprocal_rank_fusion(keyword, vector)}
    assert (fused["a"].keyword_rank, fused["a"].vector_rank) == (1, None)
    assert (fused["b"].keyword_rank, fused["b"].vector_rank) == (2, 1)
    assert (fused["c"].keyword_score, fused["c"].vector_score) == (None, vector[1].vector_score)
    assert fused["b"].score == pytest.approx(1 / 62 + 1 / 61)
    assert [hit.mode for hit in fused.values()] == ["hybrid"] * 3
