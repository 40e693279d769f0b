"""Which embedder and reranker the settings ask for; nothing is loaded until one is made.

``EMBEDDERS`` is the registry behind ``ASKALONG_EMBEDDER`` (the local engines' names are
in ``local/engines.py``). ``config`` checks the setting against its keys, so this module
must stay cheap to import: numpy, httpx and the model code load inside the factories.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeAlias

from askalong.errors import ConfigError
from askalong.settings import EmbedderName, Settings

if TYPE_CHECKING:  # numpy and httpx behind these: types only
    from askalong.providers.base import Embedder
    from askalong.providers.rerank import Reranker

EmbedderFactory: TypeAlias = "Callable[[Settings], Embedder | None]"


def _local(settings: Settings) -> Embedder:
    from askalong.providers.local.embedder import deferred_default

    return deferred_default(settings)  # the model loads when something is embedded


def _openai(settings: Settings) -> Embedder:
    if not settings.embed_base_url or not settings.embed_model:
        raise ConfigError(
            "ASKALONG_EMBEDDER=openai needs ASKALONG_EMBED_BASE_URL and ASKALONG_EMBED_MODEL"
        )
    from askalong.providers.openai.embeddings import OpenAIEmbedder

    return OpenAIEmbedder(
        base_url=settings.embed_base_url,
        model=settings.embed_model,
        api_key=settings.embed_api_key,
        timeout=settings.fetch_timeout,
    )


def _none(settings: Settings) -> None:
    return None  # keyword search only


EMBEDDERS: Mapping[EmbedderName, EmbedderFactory] = {
    "local": _local,
    "openai": _openai,
    "none": _none,
}


def make_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder behind the shared budget (``budget.py``), or None when
    embeddings are off."""
    from askalong.providers.budget import BudgetedEmbedder

    embedder = EMBEDDERS[settings.embedder](settings)
    return None if embedder is None else BudgetedEmbedder(embedder)


def make_reranker(settings: Settings) -> Reranker | None:
    """The configured ``/rerank`` endpoint, or None (score fusion only)."""
    if not settings.rerank_base_url:
        return None
    from askalong.providers.rerank import HttpReranker

    return HttpReranker(
        settings.rerank_base_url,
        settings.rerank_model,
        settings.rerank_api_key,
        timeout=settings.fetch_timeout,
    )
