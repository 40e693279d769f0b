"""The ``ChatModel`` ABC: one abstract method, checks and streaming in the base class.

The core is synchronous, so is this interface. A provider implements ``_complete``;
it may also override ``_stream`` when its endpoint can stream, otherwise ``stream``
yields the whole completion at once. The base class rejects empty replies and times
each call, so every provider reports the same way.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from askalong.errors import ProviderError

Role = Literal["system", "user", "assistant"]

DEFAULT_TEMPERATURE = 0.3
DEFAULT_TOP_P = 0.9


@dataclass(frozen=True)
class Sampling:
    """How a reply is drawn; ``json_mode`` asks for a JSON object."""

    json_mode: bool = False
    temperature: float = DEFAULT_TEMPERATURE
    top_p: float = DEFAULT_TOP_P
    max_tokens: int | None = None


DEFAULT_SAMPLING = Sampling()  # free text at the default temperature


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True)
class ChatReply:
    """A finished completion. ``seconds`` is the wall time of the whole call, retries
    included; token counts are None when the endpoint does not report usage."""

    text: str
    model: str
    finish_reason: str | None
    usage_prompt_tokens: int | None
    usage_completion_tokens: int | None
    seconds: float


class ChatModel(ABC):
    """Messages in, one assistant reply out."""

    def __init__(self, *, name: str) -> None:
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @abstractmethod
    def _complete(self, messages: list[ChatMessage], sampling: Sampling) -> ChatReply:
        """One completion of ``messages``; raise ``ProviderError`` on failure."""

    def _stream(self, messages: list[ChatMessage], sampling: Sampling) -> Iterator[str]:
        """Pieces of the reply as they arrive; by default the whole reply in one piece."""
        yield self._complete(messages, sampling).text

    def complete(
        self, messages: Sequence[ChatMessage], sampling: Sampling = DEFAULT_SAMPLING
    ) -> ChatReply:
        """The model's reply to ``messages``, drawn as ``sampling`` says."""
        started = time.monotonic()
        reply = self._complete(self._checked(messages), sampling)
        if not reply.text.strip():
            raise ProviderError("empty reply", source=self.name)
        return replace(reply, seconds=time.monotonic() - started)

    def stream(
        self, messages: Sequence[ChatMessage], sampling: Sampling = DEFAULT_SAMPLING
    ) -> Iterator[str]:
        """The reply in pieces (joined, they equal ``complete``'s text); an empty
        reply raises ``ProviderError`` once the stream has ended."""
        seen = False
        for piece in self._stream(self._checked(messages), sampling):
            if piece:
                seen = seen or bool(piece.strip())
                yield piece
        if not seen:
            raise ProviderError("empty reply", source=self.name)

    def _checked(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        items = list(messages)
        if not items:
            raise ValueError("at least one message is needed")
        return items
