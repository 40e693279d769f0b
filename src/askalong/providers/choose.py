"""Which embedder the settings ask for; nothing is loaded until it is called."""

from __future__ import annotations

from askalong.config import Settings
from askalong.errors import ConfigError
from askalong.providers.base import Embedder
from askalong.providers.rerank import HttpReranker, Reranker


def make_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None when embeddings are off."""
    if settings.embedder == "none":
        return None
    if settings.embedder == "openai":
        from askalong.providers.openai.embeddings import OpenAIEmbedder

        if not settings.embed_base_url or not settings.embed_model:
            raise ConfigError(
                "ASKALONG_EMBEDDER=openai needs ASKALONG_EMBED_BASE_URL and ASKALONG_EMBED_MODEL"
            )
        return OpenAIEmbedder(
            base_url=settings.embed_base_url,
            model=settings.embed_model,
            api_key=settings.embed_api_key,
            timeout=settings.fetch_timeout,
        )
    from askalong.providers.local.embedder import default_embedder

    return default_embedder(settings)


def make_reranker(settings: Settings) -> Reranker | None:
    """The configured ``/rerank`` endpoint, or None (score fusion only)."""
    if not settings.rerank_base_url:
        return None
    return HttpReranker(
        settings.rerank_base_url,
        settings.rerank_model,
        settings.rerank_api_key,
        timeout=settings.fetch_timeout,
    )
