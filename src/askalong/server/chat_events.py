"""The chat events (``askalong.agent.stream_events``) as Server-Sent Events, in the style
of ``/api/ask``: one typed SSE message per event, its ``data`` one JSON object. The shapes
are listed in ``routes/chat.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Literal, get_args

from askalong.agent.stream_events import (
    ChatAnswered,
    ChatEvent,
    ChatStarted,
    PartAnswered,
    ToolCalled,
    ToolDone,
)
from askalong.server.sse import named_stream
from askalong.wire import chat_json, chat_part_json, tool_step_json

# In the order a stream sends them (``error`` ends a failed one); the reader's copy is
# generated from this tuple (``server/contract.py``).
ChatEventName = Literal["conversation", "tool_call", "tool_result", "part", "done", "error"]
CHAT_EVENT_NAMES: tuple[ChatEventName, ...] = get_args(ChatEventName)


async def chat_stream(first: ChatEvent, rest: Iterator[ChatEvent]) -> AsyncIterator[bytes]:
    """``first`` (taken already, so errors before it were plain JSON errors), then the rest
    as they come; a failure ends the stream with ``error`` (``sse.named_stream``)."""
    async for message in named_stream(first, rest, chat_named):
        yield message


def chat_named(event: ChatEvent) -> tuple[ChatEventName, Mapping[str, object]]:
    match event:
        case ChatStarted():
            return "conversation", {
                "conversation_id": event.conversation_id,
                "turn_id": event.turn_id,
                "mode": event.mode,
            }
        case ToolCalled():
            return "tool_call", {"name": event.name, "arguments": dict(event.arguments)}
        case ToolDone():
            return "tool_result", dict(tool_step_json(event.step))
        case PartAnswered():
            return "part", {"index": event.index, **chat_part_json(event.part)}
        case ChatAnswered():
            return "done", {"answer": chat_json(event.answer)}
