"""Which answerer (and claim judge) the settings ask for.

``ANSWERERS`` is the registry behind ``ASKALONG_ANSWERER``; ``config`` checks the
setting against its keys, so this module stays cheap to import and each factory
loads its answerer when called. ``extractive`` (the default) answers offline with the
library's embedder, when there is one. ``openai`` builds the model answerer from
``ASKALONG_LLM_BASE_URL`` / ``ASKALONG_LLM_MODEL`` (the strong model) and, when set,
``ASKALONG_LLM_LIGHT_MODEL``; the judge uses the light model, else the strong one.
The OpenAI SDK is imported only on that path: it is an optional extra.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from askalong.errors import ConfigError
from askalong.providers.chat import ChatMessage, ChatModel, Sampling
from askalong.settings import AnswererName, Settings

if TYPE_CHECKING:  # types only: config imports this module, and rjieba and numpy load behind them
    from askalong.answer.base import Answerer
    from askalong.providers.base import Embedder
    from askalong.verify.judge import Judge

AnswererFactory: TypeAlias = "Callable[[Settings, Embedder | None], Answerer]"
JUDGE_SAMPLING = Sampling(json_mode=True, temperature=0.0)  # a verdict should not vary


def _extractive(settings: Settings, embedder: Embedder | None) -> Answerer:
    from askalong.answer.extractive.answerer import ExtractiveAnswerer

    bundled = settings.embedder == "local"
    return ExtractiveAnswerer(embedder, scorer=settings.sentence_scorer, bundled=bundled)


def _model(settings: Settings, embedder: Embedder | None) -> Answerer:
    from askalong.answer.llm.answerer import ModelAnswerer

    strong, light = make_chat_models(settings)
    return ModelAnswerer(strong, light)


ANSWERERS: Mapping[AnswererName, AnswererFactory] = {
    "extractive": _extractive,
    "openai": _model,
}


def make_answerer(settings: Settings, embedder: Embedder | None) -> Answerer:
    """The configured answerer (``embedder``: the library's, for the offline one);
    ``ConfigError`` when the model settings are missing."""
    return ANSWERERS[settings.answerer](settings, embedder)


def make_judge(settings: Settings) -> Judge | None:
    """The claim judge: a chat model's JSON reply to the judge's messages (instructions
    as the system message, fenced data as the user's); None without a model answerer or
    with ``ASKALONG_LLM_JUDGE`` off."""
    if settings.answerer != "openai" or not settings.llm_judge:
        return None
    strong, light = make_chat_models(settings)
    chat = light or strong

    def judge(messages: Sequence[ChatMessage]) -> str:
        return chat.complete(messages, JUDGE_SAMPLING).text

    return judge


def make_chat_models(settings: Settings) -> tuple[ChatModel, ChatModel | None]:
    """(strong, light) chat models; light is None when it is not configured or is the
    strong model under another name."""
    if not settings.llm_base_url or not settings.llm_model:
        raise ConfigError(
            "ASKALONG_ANSWERER=openai needs ASKALONG_LLM_BASE_URL and ASKALONG_LLM_MODEL"
        )
    from askalong.providers.openai.chat import OpenAIChat

    def chat(model: str) -> ChatModel:
        return OpenAIChat(
            settings.llm_base_url, model, settings.llm_api_key, timeout=settings.llm_timeout
        )

    light_name = settings.llm_light_model
    light = chat(light_name) if light_name and light_name != settings.llm_model else None
    return chat(settings.llm_model), light
