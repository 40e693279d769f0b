"""Tool calls as a model streams them (pure), for the ReAct loop over OpenAI-compatible
tool calling: the ``delta.tool_calls`` pieces of a streamed reply accumulated by ``index``
(the id and name come once, the arguments' JSON text in pieces), and repeated calls told
apart by their canonical form (the same name and the same arguments, keys sorted).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from askalong.providers.chat import ToolCall  # the provider's own: one ToolCall for both

REPEATS_TO_STOP = 3  # the third identical call ends the loop


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
