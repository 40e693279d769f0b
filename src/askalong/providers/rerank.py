"""Rerankers: the ``Reranker`` ABC, an HTTP ``/rerank`` provider, and how hits use it.

A reranker scores each candidate passage against the query (a cross-encoder reads
both together, which fusion of separate scores cannot). ``HttpReranker`` speaks the
Jina / Cohere / OpenAI-style wire format that vLLM, Xinference, SiliconFlow and
DashScope's compatible mode share::

    POST {base_url}/rerank  {"model", "query", "documents": [...], "top_n"}
    ->   {"results": [{"index": 0, "relevance_score": 0.93}, ...]}

``"score"`` is accepted for ``"relevance_score"``, and a bare list of results (as
text-embeddings-inference returns) for the ``{"results": ...}`` object.

Reranking is an improvement, never a dependency: ``rerank_or_fallback`` keeps the
retrieved order, with a note saying why, when the reranker fails or times out.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from askalong.errors import ConfigError, ProviderError
from askalong.providers.http import RetriesExhausted, RetryPolicy, post_json
from askalong.types import Hit

if TYPE_CHECKING:
    import httpx

MIN_RERANK_SCORE = 0.1  # hits a reranker scores lower are not evidence
DEFAULT_RETRY = RetryPolicy(attempts=3)  # a search is waiting; the fallback is near


class Reranker(ABC):
    """A query and passages in, one relevance score per passage out."""

    def __init__(self, *, name: str) -> None:
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @abstractmethod
    def _rerank(self, query: str, documents: list[str]) -> list[float]:
        """One relevance score per document, in input order (higher is better)."""

    def rerank(
        self, query: str, documents: Sequence[str], top_n: int | None = None
    ) -> list[tuple[int, float]]:
        """``(index, score)`` pairs, best first (ties keep input order), at most ``top_n``."""
        items = list(documents)
        if not items:
            return []
        scores = self._rerank(query, items)
        if len(scores) != len(items):
            raise ProviderError(
                f"expected {len(items)} scores, got {len(scores)}", source=self.name
            )
        ranked = sorted(enumerate(scores), key=lambda pair: -pair[1])
        return ranked if top_n is None else ranked[:top_n]


class HttpReranker(Reranker):
    """An OpenAI-style ``/rerank`` endpoint."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout: float = 10.0,
        *,
        retry: RetryPolicy | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"rerank base URL {base_url!r} must start with http(s)://")
        self.url = base_url.rstrip("/") + "/rerank"
        self.model = model
        self.retry = retry or DEFAULT_RETRY
        self._secret = api_key
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        import httpx  # ~0.25 CPU-s: a search without a reranker (every ``ask``) never pays it

        self._client = httpx.Client(timeout=timeout, headers=headers)
        super().__init__(name=f"{model} at {self.url}")

    def close(self) -> None:
        self._client.close()

    def _rerank(self, query: str, documents: list[str]) -> list[float]:
        payload = {
            "model": self.model,
            "query": query,
            "documents": documents,
            "top_n": len(documents),  # every score: the caller decides what to keep
        }
        response = self._post(payload)
        try:
            return _scores(response.json(), len(documents))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise self._error(f"malformed rerank reply: {exc}") from exc

    def _post(self, payload: dict[str, Any]) -> httpx.Response:
        try:
            response = post_json(self._client, self.url, payload, self.retry)
        except RetriesExhausted as exc:
            raise self._error(str(exc)) from exc
        if response.status_code != 200:
            raise self._error(f"HTTP {response.status_code}: {response.text[:200]}")
        return response

    def _error(self, problem: str) -> ProviderError:
        message = f"reranker {self.model!r}: {problem}"
        if self._secret:
            message = message.replace(self._secret, "***")
        return ProviderError(message, source=self.url)


def _scores(body: Any, count: int) -> list[float]:
    """One score per document from a ``/rerank`` reply; every document must be scored."""
    results = body["results"] if isinstance(body, dict) else body
    scores: list[float | None] = [None] * count
    for item in results:
        index = int(item["index"])
        if not 0 <= index < count:
            raise IndexError(f"result index {index} is not one of the {count} documents")
        value = item["relevance_score"] if "relevance_score" in item else item["score"]
        scores[index] = float(value)
    missing = [i for i, score in enumerate(scores) if score is None]
    if missing:
        raise KeyError(f"no score for document(s) {missing[:10]}")
    return [score for score in scores if score is not None]


def apply_rerank(
    hits: Sequence[Hit], scores: Sequence[tuple[int, float]], *, min_score: float = MIN_RERANK_SCORE
) -> list[Hit]:
    """The hits in the order of ``scores`` (``(index into hits, score)``, best first),
    each with ``score`` set to its rerank score; hits scored below ``min_score`` are
    dropped, and so are hits that ``scores`` leaves out (a ``top_n`` cut)."""
    kept = []
    for index, score in scores:
        if not 0 <= index < len(hits):
            raise ValueError(f"rerank index {index} is out of range for {len(hits)} hits")
        if score >= min_score:
            kept.append(replace(hits[index], score=score, rerank_score=score))
    return kept


def rerank_or_fallback(
    reranker: Reranker,
    query: str,
    hits: Sequence[Hit],
    texts: Sequence[str],
    *,
    min_score: float = MIN_RERANK_SCORE,
) -> tuple[list[Hit], str | None]:
    """Reranked hits and None, or, when the reranker fails, the hits as they were and
    a note saying so. ``texts[i]`` is the passage of ``hits[i]``."""
    if len(texts) != len(hits):
        raise ValueError(f"{len(hits)} hits but {len(texts)} texts")
    try:
        scores = reranker.rerank(query, texts)
    except ProviderError as exc:
        return list(hits), f"reranking skipped, retrieval order kept: {exc}"
    return apply_rerank(hits, scores, min_score=min_score), None
