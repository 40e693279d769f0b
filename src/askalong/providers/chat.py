"""The ``ChatModel`` ABC: one abstract method, checks and streaming in the base class.

The core is synchronous, so is this interface. A provider implements ``_complete``;
it may also override ``_stream`` when its endpoint can stream, otherwise ``stream``
yields the whole completion at once. The base class rejects empty replies and times
each call, so every provider reports the same way.

Tool calling (OpenAI style): ``Sampling.tools`` offers tools (``ToolSpec``) and says which
the model must or may call (``tool_choice``); a reply's calls come back as ``ToolCall``s,
and each is answered by a ``"tool"`` message naming its ``tool_call_id``, after the
assistant message that carried the calls. Streamed (``complete_streamed``), a reply's calls
arrive as ``delta.tool_calls`` pieces, accumulated here by ``index`` (``accumulated_calls``).
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from askalong.errors import ProviderError

Role = Literal["system", "user", "assistant", "tool"]
# "auto": the model decides; "none": no call; "required": some call; else the tool's name
TOOL_CHOICES = ("auto", "none", "required")

DEFAULT_TEMPERATURE = 0.3
DEFAULT_TOP_P = 0.9


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: its name, what it does, its arguments' JSON Schema."""

    name: str
    description: str
    parameters: Mapping[str, object] = field(
        default_factory=lambda: {"type": "object", "properties": {}}
    )


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # JSON text as the model wrote it

    def parsed(self) -> dict[str, object]:
        """The arguments as an object; text that is not a JSON object raises ValueError."""
        value = json.loads(self.arguments or "{}")
        if not isinstance(value, dict):
            raise ValueError(f"{self.name}: the arguments are not a JSON object")
        return value


def accumulated_calls(deltas: Iterable[Sequence[Mapping[str, object]]]) -> tuple[ToolCall, ...]:
    """The calls of a streamed reply, in index order, from each chunk's
    ``choices[0].delta.tool_calls`` list: a piece names its call by ``index``; its ``id``
    and ``function.name`` arrive once, ``function.arguments`` in pieces to be joined."""
    ids: dict[int, str] = {}
    names: dict[int, str] = {}
    texts: dict[int, list[str]] = {}
    for pieces in deltas:
        for piece in pieces:
            index = piece.get("index")
            if not isinstance(index, int):
                raise ValueError("a streamed tool call piece without an integer index")
            function = piece.get("function")
            function = function if isinstance(function, Mapping) else {}
            if isinstance(piece.get("id"), str) and piece["id"]:
                ids[index] = str(piece["id"])
            if isinstance(function.get("name"), str) and function["name"]:
                names[index] = str(function["name"])
            texts.setdefault(index, []).append(str(function.get("arguments") or ""))
    return tuple(
        ToolCall(ids.get(i, f"call_{i}"), names.get(i, ""), "".join(texts[i]))
        for i in sorted(texts)
    )


@dataclass(frozen=True)
class Sampling:
    """How a reply is drawn; ``json_mode`` asks for a JSON object; ``tools`` are offered
    under ``tool_choice`` (one of ``TOOL_CHOICES`` or a tool's name, which forces it)."""

    json_mode: bool = False
    temperature: float = DEFAULT_TEMPERATURE
    top_p: float = DEFAULT_TOP_P
    max_tokens: int | None = None
    tools: tuple[ToolSpec, ...] = ()
    tool_choice: str = "auto"

    def __post_init__(self) -> None:
        names = {tool.name for tool in self.tools}
        if self.tools and self.tool_choice not in (*TOOL_CHOICES, *names):
            raise ValueError(
                f"tool_choice {self.tool_choice!r}: one of {', '.join(TOOL_CHOICES)}"
                f" or a tool's name ({', '.join(sorted(names))})"
            )


DEFAULT_SAMPLING = Sampling()  # free text at the default temperature


@dataclass(frozen=True)
class ChatMessage:
    """One message; an assistant's may carry ``tool_calls``, and a ``"tool"`` message
    answers the call whose id is its ``tool_call_id``."""

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None

    def __post_init__(self) -> None:
        if (self.role == "tool") != bool(self.tool_call_id):
            raise ValueError("a tool message, and only one, names the tool_call_id it answers")
        if self.tool_calls and self.role != "assistant":
            raise ValueError("only an assistant message carries tool calls")

    @classmethod
    def tool_result(cls, call: ToolCall, content: str) -> ChatMessage:
        return cls("tool", content, tool_call_id=call.id)


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
    tool_calls: tuple[ToolCall, ...] = ()  # when tools were offered: the calls, in order


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

    def _stream_reply(self, messages: list[ChatMessage], sampling: Sampling) -> ChatReply:
        """The reply read from a stream, its calls accumulated; by default ``_complete``."""
        return self._complete(messages, sampling)

    def complete_streamed(
        self, messages: Sequence[ChatMessage], sampling: Sampling = DEFAULT_SAMPLING
    ) -> ChatReply:
        """``complete``, the reply read as a stream (a provider that streams overrides
        ``_stream_reply``): the text joined, the tool calls accumulated by ``index``."""
        started = time.monotonic()
        reply = self._stream_reply(self._checked(messages), sampling)
        if not reply.text.strip() and not reply.tool_calls:
            raise ProviderError("empty reply", source=self.name)
        return replace(reply, seconds=time.monotonic() - started)

    def complete(
        self, messages: Sequence[ChatMessage], sampling: Sampling = DEFAULT_SAMPLING
    ) -> ChatReply:
        """The model's reply to ``messages``, drawn as ``sampling`` says."""
        started = time.monotonic()
        reply = self._complete(self._checked(messages), sampling)
        if not reply.text.strip() and not reply.tool_calls:
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
