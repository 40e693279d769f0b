"""Pieces of the ReAct loop (issue 15, item 5), pure, one over the real wire format:
streamed ``tool_calls`` accumulated by ``index`` from the scripted chat server's SSE
chunks (several calls in one reply, their arguments split across chunks and
interleaved), repeated identical calls, and invented citation numbers removed."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.agent.invented_citations import INVENTED_MARK, checked_citations
from askalong.agent.tool_calls import RepeatGuard, ToolCall, accumulated_calls, canonical

CALLS = (
    ("search_knowledge", {"query": "what VACUUM reclaims", "top_k": 5}),
    ("knowledge_stats", {}),
    ("search_knowledge", {"query": "checkpoint 检查点", "top_k": 3}),
)


def streamed_deltas(url: str) -> list[list[dict[str, Any]]]:
    """Each chunk's ``choices[0].delta.tool_calls`` of a streamed completion, read over HTTP."""
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "q"}]}
    deltas = []
    with httpx.stream("POST", f"{url}/chat/completions", json=body, timeout=10) as response:
        for line in response.iter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            choices = json.loads(line.removeprefix("data: "))["choices"]
            if choices and choices[0]["delta"].get("tool_calls"):
                deltas.append(choices[0]["delta"]["tool_calls"])
    return deltas


def test_streamed_tool_calls_are_accumulated_by_index() -> None:
    with ScriptedChatServer(Reply.tool_calls(*CALLS)) as server:
        deltas = streamed_deltas(server.url)
    assert len(deltas) > len(CALLS) + 3  # the arguments came in pieces, interleaved
    assert any(piece[0]["index"] == 0 for piece in deltas[len(CALLS) + 2 :])
    calls = accumulated_calls(deltas)
    assert [(c.id, c.name) for c in calls] == [
        ("call_1", "search_knowledge"),
        ("call_2", "knowledge_stats"),
        ("call_3", "search_knowledge"),
    ]
    assert [c.parsed() for c in calls] == [arguments for _, arguments in CALLS]


def test_pieces_out_of_order_and_a_missing_index() -> None:
    deltas = [
        [{"index": 1, "id": "b", "function": {"name": "knowledge_stats", "arguments": ""}}],
        [{"index": 0, "id": "a", "function": {"name": "search_knowledge", "arguments": '{"q'}}],
        [{"index": 0, "function": {"arguments": 'uery": "x"}'}}],
    ]
    assert accumulated_calls(deltas) == (
        ToolCall("a", "search_knowledge", '{"query": "x"}'),
        ToolCall("b", "knowledge_stats", ""),
    )
    with pytest.raises(ValueError, match="index"):
        accumulated_calls([[{"function": {"arguments": "{}"}}]])
    with pytest.raises(ValueError, match="not a JSON object"):
        ToolCall("c", "search_knowledge", "[1]").parsed()


def test_a_repeat_is_known_by_its_canonical_form_and_the_third_ends_the_loop() -> None:
    guard = RepeatGuard()
    assert guard.seen("search_knowledge", {"query": "x", "top_k": 5}) == "new"
    assert guard.seen("search_knowledge", {"top_k": 5, "query": "x"}) == "repeat"
    assert guard.seen("search_knowledge", {"query": "x", "top_k": 4}) == "new"
    assert guard.seen("search_knowledge", {"top_k": 5, "query": "x"}) == "stop"
    assert canonical("a", {"b": 1, "a": 2}) == 'a:{"a": 2, "b": 1}'


def test_invented_citation_numbers_are_removed_and_the_sentence_marked() -> None:
    text = (
        "VACUUM reclaims storage [1]. A checkpoint flushes pages [2, 9]. "
        "It was invented in 1970 (source#12: guide.pdf | p. 3). 检查点很重要 (来源#0: 手册)。"
    )
    checked = checked_citations(text, highest=5)
    assert checked.removed == (9, 12, 0)
    assert checked.text == (
        "VACUUM reclaims storage [1]. A checkpoint flushes pages [2]" + INVENTED_MARK + ". "
        "It was invented in 1970" + INVENTED_MARK + ". 检查点很重要" + INVENTED_MARK + "。"
    )
    assert checked_citations("All fine [1] (source#2: a).", 2).removed == ()
