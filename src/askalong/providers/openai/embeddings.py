"""Embeddings from any OpenAI-compatible endpoint: ``POST {base_url}/embeddings``.

Requests are batched; a 429 or 5xx (or a dropped connection) is retried with
exponential backoff, honouring ``Retry-After``, a bounded number of times, and
then raised as a ``ProviderError`` naming the URL and the last status.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import httpx
import numpy as np

from askalong.errors import ConfigError
from askalong.providers.base import Embedder, EmbedKind, ProviderError, normalise

MAX_RETRY_AFTER = 30.0  # seconds: never sleep longer on a server's say-so


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5  # total tries per request
    backoff: float = 0.5  # seconds before the first retry, doubled each time

    def delay(self, attempt: int, response: httpx.Response | None) -> float:
        said = response.headers.get("retry-after") if response is not None else None
        if said is not None:
            try:
                return min(max(float(said), 0.0), MAX_RETRY_AFTER)
            except ValueError:
                pass
        return float(self.backoff * 2**attempt)


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
        self.retry = retry or RetryPolicy()
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
        response: httpx.Response | None = None
        problem = ""
        for attempt in range(self.retry.attempts):
            if attempt:
                time.sleep(self.retry.delay(attempt - 1, response))
            try:
                response = self._client.post(self.url, json=payload)
            except httpx.TransportError as exc:
                response, problem = None, f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code == 429 or response.status_code >= 500:
                problem = f"HTTP {response.status_code}"
                continue
            return self._parse(response, len(inputs))
        raise ProviderError(
            f"embeddings request failed after {self.retry.attempts} tries ({problem})",
            source=self.url,
        )

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
