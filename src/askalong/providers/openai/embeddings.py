"""Embeddings from any OpenAI-compatible endpoint: ``POST {base_url}/embeddings``.

Requests are batched; each is tried as the provider retry policy says (``http.py``:
429, 5xx and dropped connections retried with backoff, ``Retry-After`` honoured up to
a cap, five tries by default), then a ``ProviderError`` names the URL and the last
status.
"""

from __future__ import annotations

import httpx
import numpy as np

from askalong.errors import ConfigError
from askalong.providers.base import Embedder, EmbedKind, ProviderError, normalise
from askalong.providers.http import RetriesExhausted, RetryPolicy, post_json

DEFAULT_RETRY = RetryPolicy(attempts=5)  # indexing can wait out a busy endpoint


class OpenAIEmbedder(Embedder):
    """Vectors from an OpenAI-style ``/embeddings`` endpoint (vLLM, Ollama, OpenAI ...)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        *,
        dimension: int | None = None,
        batch_size: int = 64,
        retry: RetryPolicy | None = None,
        prefixes: tuple[str, str] = ("", ""),
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"embeddings base URL {base_url!r} must start with http(s)://")
        self.url = base_url.rstrip("/") + "/embeddings"
        self.model = model
        self.batch_size = batch_size
        self.retry = retry or DEFAULT_RETRY
        self._prefixes = {"query": prefixes[0], "passage": prefixes[1]}
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)
        super().__init__(name=f"openai:{model}", dimension=dimension or 0)

    @property
    def dimension(self) -> int:
        if not self._dimension:  # unknown until the endpoint has answered once
            self._dimension = self._request(["dimension probe"]).shape[1]
        return self._dimension

    def close(self) -> None:
        self._client.close()

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        prefix = self._prefixes[kind]
        inputs = [prefix + text for text in texts]
        parts = [
            self._request(inputs[i : i + self.batch_size])
            for i in range(0, len(inputs), self.batch_size)
        ]
        return np.concatenate(parts) if parts else np.zeros((0, self.dimension), np.float32)

    def _request(self, inputs: list[str]) -> np.ndarray:
        payload = {"model": self.model, "input": inputs, "encoding_format": "float"}
        try:
            response = post_json(self._client, self.url, payload, self.retry)
        except RetriesExhausted as exc:
            raise ProviderError(f"embeddings request {exc}", source=self.url) from exc
        return self._parse(response, len(inputs))

    def _parse(self, response: httpx.Response, expected: int) -> np.ndarray:
        if response.status_code != 200:
            raise ProviderError(
                f"HTTP {response.status_code}: {response.text[:200]}", source=self.url
            )
        try:
            items = sorted(response.json()["data"], key=lambda item: item["index"])
            vectors = np.array([item["embedding"] for item in items], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise ProviderError(f"malformed embeddings reply: {exc}", source=self.url) from exc
        if vectors.ndim != 2 or len(vectors) != expected:
            raise ProviderError(
                f"expected {expected} embeddings, got shape {vectors.shape}", source=self.url
            )
        self._dimension = self._dimension or vectors.shape[1]
        return normalise(vectors)
