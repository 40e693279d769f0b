"""Tool calling through the OpenAI-compatible chat client, against the scripted server
speaking the real wire format (``chat_server.py``): the tools and ``tool_choice`` sent,
a reply's calls returned in order, each answered by a ``tool`` message with its
``tool_call_id`` (the server refuses a request that leaves a call unanswered, as real
endpoints do)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.errors import ProviderError
from askalong.providers.chat import ChatMessage, Sampling, ToolCall, ToolSpec
from askalong.providers.openai.chat import OpenAIChat

SEARCH = ToolSpec(
    "search_knowledge",
    "Search the knowledge base.",
    {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)
STATS = ToolSpec("knowledge_stats", "Count the documents and chunks.")
ASK = [ChatMessage("system", "Use the tools."), ChatMessage("user", "What is a view? 有多少文档？")]


@pytest.fixture
def server() -> Iterator[ScriptedChatServer]:
    with ScriptedChatServer() as scripted:
        yield scripted


def chat(server: ScriptedChatServer) -> OpenAIChat:
    return OpenAIChat(server.url, "scripted-model", timeout=5.0)


def test_tools_and_a_forced_choice_are_sent(server: ScriptedChatServer) -> None:
    server.script(Reply.tool_calls(("search_knowledge", {"query": "view"})))
    chat(server).complete(ASK, Sampling(tools=(SEARCH, STATS), tool_choice="search_knowledge"))
    [body] = server.chat_bodies
    assert [t["function"]["name"] for t in body["tools"]] == ["search_knowledge", "knowledge_stats"]
    assert body["tools"][0] == {
        "type": "function",
        "function": {
            "name": "search_knowledge",
            "description": "Search the knowledge base.",
            "parameters": SEARCH.parameters,
        },
    }
    assert body["tool_choice"] == {"type": "function", "function": {"name": "search_knowledge"}}


@pytest.mark.parametrize("choice", ["auto", "none", "required"])
def test_a_named_mode_is_sent_as_its_word(server: ScriptedChatServer, choice: str) -> None:
    server.script(Reply.text("fine"))
    chat(server).complete(ASK, Sampling(tools=(SEARCH,), tool_choice=choice))
    assert server.chat_bodies[0]["tool_choice"] == choice


def test_no_tools_sends_neither_field(server: ScriptedChatServer) -> None:
    server.script(Reply.text("fine"))
    chat(server).complete(ASK)
    assert "tools" not in server.chat_bodies[0] and "tool_choice" not in server.chat_bodies[0]


def test_several_calls_come_back_in_order(server: ScriptedChatServer) -> None:
    server.script(
        Reply.tool_calls(("search_knowledge", {"query": "view"}), ("knowledge_stats", {}))
    )
    reply = chat(server).complete(ASK, Sampling(tools=(SEARCH, STATS)))
    assert reply.tool_calls == (
        ToolCall("call_1", "search_knowledge", '{"query": "view"}'),
        ToolCall("call_2", "knowledge_stats", "{}"),
    )
    assert reply.text == "" and reply.finish_reason == "tool_calls"
    assert reply.tool_calls[0].parsed() == {"query": "view"}


def test_each_call_is_answered_by_its_tool_call_id(server: ScriptedChatServer) -> None:
    server.script(
        Reply.tool_calls(("search_knowledge", {"query": "view"}), ("knowledge_stats", {})),
        Reply.text("A view is a stored query [1]."),
    )
    model = chat(server)
    first = model.complete(ASK, Sampling(tools=(SEARCH, STATS)))
    turn = [
        *ASK,
        ChatMessage("assistant", first.text, tool_calls=first.tool_calls),
        *(ChatMessage.tool_result(c, f"result of {c.name}") for c in first.tool_calls),
    ]
    final = model.complete(turn, Sampling(tools=(SEARCH, STATS), tool_choice="none"))
    assert final.text == "A view is a stored query [1]."
    sent = server.chat_bodies[1]["messages"]
    assert sent[2]["tool_calls"] == [
        {"id": "call_1", "type": "function",
         "function": {"name": "search_knowledge", "arguments": '{"query": "view"}'}},
        {"id": "call_2", "type": "function",
         "function": {"name": "knowledge_stats", "arguments": "{}"}},
    ]  # fmt: skip
    assert [(m["role"], m["tool_call_id"], m["content"]) for m in sent[3:]] == [
        ("tool", "call_1", "result of search_knowledge"),
        ("tool", "call_2", "result of knowledge_stats"),
    ]


def test_a_call_left_unanswered_is_refused_by_the_endpoint(server: ScriptedChatServer) -> None:
    server.script(Reply.text("never sent"))
    call = ToolCall("call_9", "knowledge_stats", "{}")
    with pytest.raises(ProviderError, match="call_9"):
        chat(server).complete([*ASK, ChatMessage("assistant", "", tool_calls=(call,))])


def test_messages_and_choices_are_checked() -> None:
    with pytest.raises(ValueError, match="tool_call_id"):
        ChatMessage("tool", "result")
    with pytest.raises(ValueError, match="tool_call_id"):
        ChatMessage("user", "hi", tool_call_id="call_1")
    with pytest.raises(ValueError, match="assistant"):
        ChatMessage("user", "hi", tool_calls=(ToolCall("c", "knowledge_stats", ""),))
    with pytest.raises(ValueError, match="tool_choice 'generate_summary'"):
        Sampling(tools=(SEARCH,), tool_choice="generate_summary")


def test_a_streamed_reply_accumulates_its_calls_by_index(server: ScriptedChatServer) -> None:
    """The server sends each call's arguments in word-sized pieces, interleaved across the
    calls; read as a stream, the reply holds each call whole, in index order."""
    query = "what does VACUUM reclaim and when does autovacuum run it"
    server.script(
        Reply.tool_calls(("search_knowledge", {"query": query}), ("knowledge_stats", {})),
        Reply.text("VACUUM reclaims dead tuples [1]."),
    )
    sampling = Sampling(tools=(SEARCH, STATS), tool_choice="search_knowledge")
    reply = chat(server).complete_streamed(ASK, sampling)
    assert [(c.id, c.name, c.parsed()) for c in reply.tool_calls] == [
        ("call_1", "search_knowledge", {"query": query}),
        ("call_2", "knowledge_stats", {}),
    ]
    assert (reply.finish_reason, reply.text) == ("tool_calls", "")
    assert reply.usage_prompt_tokens is not None and reply.seconds > 0
    body = server.chat_bodies[0]
    assert body["stream"] is True and body["tool_choice"]["function"]["name"] == "search_knowledge"
    answered = [
        *ASK,
        ChatMessage("assistant", "", tool_calls=reply.tool_calls),
        *(ChatMessage.tool_result(c, "passages") for c in reply.tool_calls),
    ]
    text = chat(server).complete_streamed(answered, Sampling(tools=(SEARCH, STATS)))
    assert (text.text, text.tool_calls) == ("VACUUM reclaims dead tuples [1].", ())
