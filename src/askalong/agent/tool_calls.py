"""Tool calls of the ReAct loop over OpenAI-compatible tool calling (pure): repeated calls
told apart by their canonical form (the same name and the same arguments, keys sorted).
The ``delta.tool_calls`` pieces of a streamed reply are accumulated by ``index`` where the
stream is read (``providers/chat.accumulated_calls``, named here too).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Literal

# the provider's own: one ToolCall for both, accumulated where the stream is read
from askalong.providers.chat import ToolCall, accumulated_calls

__all__ = ["REPEATS_TO_STOP", "RepeatGuard", "Seen", "ToolCall", "accumulated_calls", "canonical"]

REPEATS_TO_STOP = 3  # the third identical call ends the loop


def canonical(name: str, arguments: Mapping[str, object]) -> str:
    """One text per distinct call: the name and the arguments with their keys sorted."""
    return f"{name}:{json.dumps(arguments, sort_keys=True, ensure_ascii=False)}"


Seen = Literal["new", "repeat", "stop"]


class RepeatGuard:
    """Whether a call was made before in this answer: a repeat is answered from the first
    result; the ``REPEATS_TO_STOP``-th identical call ends the loop."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def seen(self, name: str, arguments: Mapping[str, object]) -> Seen:
        key = canonical(name, arguments)
        self._counts[key] = self._counts.get(key, 0) + 1
        count = self._counts[key]
        return "new" if count == 1 else "stop" if count >= REPEATS_TO_STOP else "repeat"
