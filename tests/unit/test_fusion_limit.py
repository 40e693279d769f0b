"""A search makes ``Hit``s only for what it may return (issue 28: ~300 fused hits were built
for a dozen kept): the limited ranking is the full ranking's prefix, and ``fuse`` keeps
what thresholding and cutting the full ranking keeps, for every fusion, with ties, title
chunks and the page-first order of a collection."""

from __future__ import annotations

import random

import pytest

from askalong.retrieve.cutoff import cut_ranking
from askalong.retrieve.ranking import (
    RetrievalPolicy,
    fuse,
    fused_ranking,
)
from askalong.types import Hit

FUSIONS = ("zscore", "rrf", "weighted")


def route(rng: random.Random, mode: str, count: int) -> list[Hit]:
    """``count`` hits of 40 chunks over 5 documents, best first, with tied scores."""
    chunks = rng.sample(range(40), count)
    scores = sorted((round(rng.uniform(0, 4)) / 2 for _ in chunks), reverse=True)
    hits = []
    for rank, (chunk, score) in enumerate(zip(chunks, scores, strict=True), start=1):
        evidence = {f"{mode}_score": score, f"{mode}_rank": rank}
        hits.append(Hit(f"c{chunk:02d}", f"d{chunk % 5}", score, mode, **evidence))  # type: ignore[arg-type]
    return hits


def cases(count: int = 300) -> list[tuple[list[Hit], list[Hit], frozenset[str]]]:
    rng = random.Random(28)
    made = []
    for _ in range(count):
        keyword = route(rng, "keyword", rng.randint(0, 25))
        vector = route(rng, "vector", rng.randint(0, 25))
        titles = frozenset(f"c{c:02d}" for c in rng.sample(range(40), rng.choice((0, 0, 3))))
        made.append((keyword, vector, titles))
    return made


def rank_key(hit: Hit) -> tuple[float, int, str]:
    """The documented order: score, then the better rank of any route, then chunk id."""
    return (-hit.score, min(hit.keyword_rank or 1 << 30, hit.vector_rank or 1 << 30), hit.chunk_id)


@pytest.mark.parametrize("fusion", FUSIONS)
def test_a_limited_ranking_is_the_full_rankings_prefix(fusion: str) -> None:
    policy = RetrievalPolicy(fusion=fusion)  # type: ignore[arg-type]
    for keyword, vector, titles in cases():
        whole = fused_ranking(keyword, vector, policy, titles=titles)
        if not titles and keyword and vector:
            assert whole == sorted(whole, key=rank_key)
        for limit in (1, 3, 10):
            assert (
                fused_ranking(keyword, vector, policy, titles=titles, limit=limit)
                == (whole[:limit])
            )


@pytest.mark.parametrize("fusion", FUSIONS)
@pytest.mark.parametrize("by_pages", [False, True])
def test_fuse_keeps_what_the_full_ranking_keeps(fusion: str, by_pages: bool) -> None:
    policy = RetrievalPolicy(fusion=fusion)  # type: ignore[arg-type]
    for keyword, vector, titles in cases():
        for k_max in (0, 1, 5, 12):
            kept = fuse(keyword, vector, policy, k_max=k_max, titles=titles, by_pages=by_pages)
            whole = fused_ranking(keyword, vector, policy, titles=titles)  # every hit made
            assert kept == cut_ranking(whole, policy, k_max, by_pages=by_pages)
