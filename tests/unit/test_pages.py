"""Pages ranked first for a collection: the order by hand, and where the searcher uses it."""

from __future__ import annotations

import pytest

from askalong.errors import ConfigError
from askalong.retrieve.cutoff import fuse
from askalong.retrieve.pages import best_pages, joined, page_first
from askalong.retrieve.policy import RetrievalPolicy
from askalong.types import Hit


def hybrid(*hits: tuple[str, str, float]) -> list[Hit]:
    return [Hit(chunk, page, score, "hybrid") for chunk, page, score in hits]


def ids(hits: list[Hit]) -> list[str]:
    return [hit.chunk_id for hit in hits]


def test_each_page_best_chunk_comes_first_then_the_rest_in_order() -> None:
    ranked = hybrid(
        ("long1", "long", 3.0), ("long2", "long", 2.9), ("long3", "long", 2.8),
        ("short", "answer", 2.7), ("other", "else", 1.0),
    )  # fmt: skip
    assert ids(page_first(ranked, share=0.0)) == ["long1", "short", "other", "long2", "long3"]
    assert [hit.score for hit in page_first(ranked, share=0.0)][:2] == [3.0, 2.7]  # unchanged


def test_a_page_where_several_chunks_match_outranks_a_lone_better_chunk() -> None:
    ranked = hybrid(
        ("lone", "a", 3.0), ("many1", "b", 2.9), ("many2", "b", 2.8), ("many3", "b", 2.7),
        *((f"tail{i}", f"t{i}", 0.0) for i in range(8)),
    )  # fmt: skip
    assert ids(page_first(ranked, share=0.0))[:2] == ["lone", "many1"]
    # z(lone) - z(many1) is small; 0.2 of many2 and many3's z turns the order.
    assert ids(page_first(ranked, share=0.2))[:2] == ["many1", "lone"]


def test_a_single_route_list_is_ranked_on_its_route_scores() -> None:
    # single_route gives 1 / (k + rank) as the score; the BM25 scores decide the pages.
    keyword = [
        Hit("a1", "a", 1 / 61, "keyword", keyword_score=10.0, keyword_rank=1),
        Hit("b1", "b", 1 / 62, "keyword", keyword_score=9.9, keyword_rank=2),
        Hit("b2", "b", 1 / 63, "keyword", keyword_score=9.8, keyword_rank=3),
        *(
            Hit(f"t{i}", f"t{i}", 1 / (64 + i), "keyword", keyword_score=1.0, keyword_rank=4 + i)
            for i in range(6)
        ),
    ]
    assert ids(page_first(keyword, share=0.5))[:2] == ["b1", "a1"]


def test_fuse_by_pages_keeps_the_count_the_scores_allow_and_picks_by_page() -> None:
    keyword = [
        Hit(f"k{i}", page, 10.0 - i, "keyword", keyword_score=10.0 - i, keyword_rank=i + 1)
        for i, page in enumerate(["long", "long", "long", "answer", "x", "y"])
    ]
    policy = RetrievalPolicy(page_share=0.0)
    by_chunk = fuse(keyword, None, policy, k_max=3)
    by_page = fuse(keyword, None, policy, k_max=3, by_pages=True)
    assert ids(by_chunk) == ["k0", "k1", "k2"]
    assert ids(by_page) == ["k0", "k3", "k4"]


def test_policy_names_when_pages_are_ranked() -> None:
    policy = RetrievalPolicy()
    assert policy.pages_from == 20 and policy.page_share == 0.2
    assert not policy.by_pages(0) and not policy.by_pages(19) and policy.by_pages(20)
    assert not RetrievalPolicy(pages_from=None).by_pages(1_000)
    with pytest.raises(ConfigError, match="pages_from"):
        RetrievalPolicy(pages_from=0)
    with pytest.raises(ConfigError, match="page_share"):
        RetrievalPolicy(page_share=1.5)


def test_the_answerer_reads_the_best_pages_own_chunks_before_other_pages() -> None:
    ranked = page_first(
        hybrid(
            ("top1", "top", 3.0), ("top2", "top", 2.9), ("top3", "top", 2.8),
            ("next1", "next", 2.7), ("next2", "next", 2.0), ("far", "far", 1.0),
        ),
        share=0.0,
    )  # fmt: skip
    assert ids(ranked)[:3] == ["top1", "next1", "far"]  # the list: one chunk per page
    assert best_pages(ranked, 2) == ("top", "next")
    # the best two pages searched again chunk by chunk, then the other pages, each once
    within = hybrid(("top1", "top", 3.0), ("top2", "top", 2.9), ("next1", "next", 2.7))
    assert ids(joined(within, ranked, 5)) == ["top1", "top2", "next1", "far", "top3"]
    assert ids(joined([], ranked, 2)) == ["top1", "next1"]
