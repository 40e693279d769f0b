"""What a chat answer streams, in order: ``ChatStarted`` (conversation and turn ids) ->
per tool call ``ToolCalled`` then ``ToolDone`` (the step: "searching: …", "3 passages") ->
``PartAnswered`` per part -> ``ChatAnswered`` (the stored, checked answer: the authority on
everything before it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from askalong.values.chat_answers import ChatAnswer, ChatPart, ToolStep


@dataclass(frozen=True)
class ChatStarted:
    conversation_id: str
    turn_id: str
    mode: str  # "offline" | "model"


@dataclass(frozen=True)
class ToolCalled:
    name: str
    arguments: Mapping[str, str | int]


@dataclass(frozen=True)
class ToolDone:
    step: ToolStep


@dataclass(frozen=True)
class PartAnswered:
    index: int
    part: ChatPart


@dataclass(frozen=True)
class ChatAnswered:
    answer: ChatAnswer


ChatEvent = ChatStarted | ToolCalled | ToolDone | PartAnswered | ChatAnswered
