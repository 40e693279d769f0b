"""Rerankers: the base class, the HTTP ``/rerank`` provider against a local server that
speaks the wire format, and how reranking reorders, filters and falls back on hits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.providers.base import ProviderError
from askalong.providers.http import RetryPolicy
from askalong.providers.rerank import HttpReranker, Reranker, apply_rerank, rerank_or_fallback
from askalong.types import Hit

KEY = "rk-test-93ab61"
QUERY = "how does BM25 saturate term frequency"
PASSAGES = [
    "The weather in Hangzhou is mild in spring.",
    "BM25 adds term frequency saturation: k1 controls how fast term frequency stops helping.",
    "向量检索按语义匹配段落。",
    "Term frequency counts how often a term occurs in a document.",
]


@pytest.fixture
def server() -> Iterator[ScriptedChatServer]:
    with ScriptedChatServer() as scripted:
        yield scripted


def make_reranker(server: ScriptedChatServer, timeout: float = 5.0) -> HttpReranker:
    retry = RetryPolicy(attempts=3, backoff=0.05)
    return HttpReranker(server.url, "bge-reranker-v2-m3", KEY, timeout, retry=retry)


def hits(count: int) -> list[Hit]:
    return [
        Hit(
            f"c{i}",
            "doc",
            score=1.0 - i / 10,
            mode="hybrid",
            keyword_score=5.0 - i,
            keyword_rank=i + 1,
        )
        for i in range(count)
    ]


# ---------------------------------------------------------------- the HTTP provider


def test_wire_format_and_order(server: ScriptedChatServer) -> None:
    ranked = make_reranker(server).rerank(QUERY, PASSAGES)
    [request] = server.requests
    assert request.path == "/v1/rerank"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.body == {
        "model": "bge-reranker-v2-m3",
        "query": QUERY,
        "documents": PASSAGES,
        "top_n": len(PASSAGES),
    }
    assert [index for index, _ in ranked] == [1, 3, 0, 2]
    scores = [score for _, score in ranked]
    assert scores == [0.6667, 0.5, 0.0, 0.0]  # 4 and 3 of the 6 query words


def test_top_n_keeps_the_best(server: ScriptedChatServer) -> None:
    server.script_rerank(Reply.rerank([0.2, 0.9, 0.5, 0.7]))
    assert make_reranker(server).rerank(QUERY, PASSAGES, top_n=2) == [(1, 0.9), (3, 0.7)]


def test_score_key_and_a_bare_list_are_accepted(server: ScriptedChatServer) -> None:
    server.script_rerank(
        Reply.rerank([0.1, 0.3], key="score"),
        Reply(scores=(0.6, 0.4), score_key="score", bare_list=True),
    )
    reranker = make_reranker(server)
    assert reranker.rerank(QUERY, PASSAGES[:2]) == [(1, 0.3), (0, 0.1)]
    assert reranker.rerank(QUERY, PASSAGES[:2]) == [(0, 0.6), (1, 0.4)]


def test_no_documents_makes_no_request(server: ScriptedChatServer) -> None:
    assert make_reranker(server).rerank(QUERY, []) == []
    assert server.requests == []


def test_a_reply_missing_a_document_is_an_error(server: ScriptedChatServer) -> None:
    server.script_rerank(Reply(scores=(0.9, 0.8, 0.7, 0.6), bare_list=True))
    reranker = make_reranker(server)
    with pytest.raises(ProviderError, match=r"no score for document\(s\) \[4\]"):
        reranker.rerank(QUERY, [*PASSAGES, "a fifth passage"])


def test_server_errors_are_retried_then_fail(server: ScriptedChatServer) -> None:
    server.script_rerank(Reply.error(503, "warming up", retry_after=0.2), Reply.rerank([0.5]))
    assert make_reranker(server).rerank(QUERY, PASSAGES[:1]) == [(0, 0.5)]
    server.script_rerank(*[Reply.error(500, "boom")] * 3)
    with pytest.raises(ProviderError, match="3 tries.*HTTP 500") as caught:
        make_reranker(server).rerank(QUERY, PASSAGES)
    assert len(server.requests) == 5
    assert server.url in str(caught.value) and KEY not in str(caught.value)


def test_client_errors_are_not_retried(server: ScriptedChatServer) -> None:
    server.script_rerank(Reply.error(401, f"bad key {KEY}"))
    with pytest.raises(ProviderError, match="HTTP 401") as caught:
        make_reranker(server).rerank(QUERY, PASSAGES)
    assert len(server.requests) == 1 and KEY not in str(caught.value)


def test_timeout_is_an_error(server: ScriptedChatServer) -> None:
    server.script_rerank(*[Reply(delay=3.0)] * 3)
    with pytest.raises(ProviderError, match="Timeout"):  # the replies come after 3 s
        make_reranker(server, timeout=0.2).rerank(QUERY, PASSAGES)


# ---------------------------------------------------------------- the base class


class Fixed(Reranker):
    def __init__(self, scores: list[float]) -> None:
        super().__init__(name="fixed")
        self.scores = scores

    def _rerank(self, query: str, documents: list[str]) -> list[float]:
        return self.scores


def test_ties_keep_input_order() -> None:
    assert Fixed([0.5, 0.9, 0.5]).rerank(QUERY, ["a", "b", "c"]) == [(1, 0.9), (0, 0.5), (2, 0.5)]


def test_a_score_per_document_is_required() -> None:
    with pytest.raises(ProviderError, match="expected 3 scores, got 2"):
        Fixed([0.5, 0.9]).rerank(QUERY, ["a", "b", "c"])


# ---------------------------------------------------------------- applying it to hits


def test_apply_rerank_reorders_drops_and_rescores() -> None:
    found = hits(4)
    reranked = apply_rerank(found, [(2, 0.95), (0, 0.4), (3, 0.1), (1, 0.05)])
    assert [hit.chunk_id for hit in reranked] == ["c2", "c0", "c3"]
    assert [hit.score for hit in reranked] == [0.95, 0.4, 0.1]
    assert reranked[0].keyword_score == found[2].keyword_score  # the route evidence is kept
    assert found[2].score == pytest.approx(0.8)  # the input is not changed
    assert apply_rerank(found, [(1, 0.5)], min_score=0.6) == []


def test_apply_rerank_refuses_a_foreign_index() -> None:
    with pytest.raises(ValueError, match="out of range"):
        apply_rerank(hits(2), [(2, 0.9)])


def test_fallback_keeps_the_retrieval_order_with_a_note(server: ScriptedChatServer) -> None:
    found = hits(len(PASSAGES))
    server.script_rerank(*[Reply.error(502, "bad gateway")] * 3)
    kept, note = rerank_or_fallback(make_reranker(server), QUERY, found, PASSAGES)
    assert kept == found
    assert note is not None and "reranking skipped" in note and "HTTP 502" in note


def test_fallback_on_timeout(server: ScriptedChatServer) -> None:
    found = hits(len(PASSAGES))
    server.script_rerank(*[Reply(delay=3.0)] * 3)
    kept, note = rerank_or_fallback(make_reranker(server, timeout=0.2), QUERY, found, PASSAGES)
    assert kept == found and note is not None and "Timeout" in note


def test_rerank_or_fallback_reranks_when_it_can(server: ScriptedChatServer) -> None:
    found = hits(len(PASSAGES))
    reranked, note = rerank_or_fallback(make_reranker(server), QUERY, found, PASSAGES)
    assert note is None
    assert [hit.chunk_id for hit in reranked] == ["c1", "c3"]  # 0 and 2 share no query word
    assert reranked[0].score > reranked[1].score >= 0.1


def test_rerank_or_fallback_needs_one_text_per_hit() -> None:
    with pytest.raises(ValueError, match="2 hits but 1 texts"):
        rerank_or_fallback(Fixed([1.0]), QUERY, hits(2), ["only one"])
