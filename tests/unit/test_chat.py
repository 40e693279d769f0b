"""Chat models: the ``ChatModel`` base class, and the OpenAI-compatible provider against
a local server that speaks the real chat-completions wire format (``chat_server.py``)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.providers.base import ProviderError
from askalong.providers.chat import ChatMessage, ChatModel, ChatReply, Sampling
from askalong.providers.http import RetryPolicy
from askalong.providers.openai.chat import OpenAIChat

KEY = "sk-test-4f9c2e7d1b"
QUESTION = [
    ChatMessage("system", "Answer only from the document."),
    ChatMessage("user", "什么是向量检索？What is vector search?"),
]


@pytest.fixture
def server() -> Iterator[ScriptedChatServer]:
    with ScriptedChatServer() as scripted:
        yield scripted


JSON = Sampling(json_mode=True)


def make_chat(
    server: ScriptedChatServer,
    timeout: float = 5.0,
    attempts: int = 3,
    backoff: float = 0.05,
    max_retry_after: float = 10.0,
) -> OpenAIChat:
    retry = RetryPolicy(attempts, backoff, max_retry_after)
    return OpenAIChat(server.url, "scripted-model", KEY, timeout=timeout, retry=retry)


def assert_no_key(error: ProviderError) -> None:
    assert KEY not in str(error) and KEY not in repr(error)


# ---------------------------------------------------------------- replies


def test_good_reply_and_what_was_sent(server: ScriptedChatServer) -> None:
    server.script(Reply.text("向量检索 finds passages by meaning."))
    reply = make_chat(server).complete(QUESTION)
    assert reply.text == "向量检索 finds passages by meaning."
    assert (reply.model, reply.finish_reason) == ("scripted-model", "stop")
    assert reply.usage_prompt_tokens == 16 and reply.usage_completion_tokens == 8
    assert reply.seconds > 0
    [request] = server.chat_requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    body = request.body
    assert body["model"] == "scripted-model"
    assert body["messages"] == [{"role": m.role, "content": m.content} for m in QUESTION]
    assert (body["temperature"], body["top_p"]) == (0.3, 0.9)
    assert "response_format" not in body and "max_tokens" not in body and "stream" not in body


def test_sampling_settings_are_sent(server: ScriptedChatServer) -> None:
    server.script(Reply.text("short"))
    make_chat(server).complete(QUESTION, Sampling(temperature=0.0, top_p=1.0, max_tokens=64))
    body = server.chat_bodies[0]
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.0, 1.0, 64)


def test_json_mode_on_and_off(server: ScriptedChatServer) -> None:
    server.script(Reply.json({"answer": "是", "citations": [1]}), Reply.text("plain"))
    chat = make_chat(server)
    reply = chat.complete(QUESTION, JSON)
    assert json.loads(reply.text) == {"answer": "是", "citations": [1]}
    assert chat.complete(QUESTION).text == "plain"
    with_json, without = server.chat_bodies
    assert with_json["response_format"] == {"type": "json_object"}
    assert "response_format" not in without


def test_fenced_and_malformed_json_come_back_verbatim(server: ScriptedChatServer) -> None:
    """The provider returns what the model said; parsing it is the answerer's job."""
    fenced, malformed = Reply.fenced({"answer": "x"}), Reply.malformed()
    server.script(fenced, malformed)
    chat = make_chat(server)
    assert chat.complete(QUESTION, JSON).text == fenced.content
    assert chat.complete(QUESTION, JSON).text == malformed.content


def test_tool_call_reply_returns_the_arguments(server: ScriptedChatServer) -> None:
    arguments = {"answer": "见第 3 页", "citations": [3]}
    server.script(Reply.tool_call(arguments), Reply.tool_call(arguments))
    chat = make_chat(server)
    reply = chat.complete(QUESTION, JSON)
    assert json.loads(reply.text) == arguments and reply.finish_reason == "tool_calls"
    assert json.loads("".join(chat.stream(QUESTION, JSON))) == arguments


def test_empty_reply_is_an_error(server: ScriptedChatServer) -> None:
    server.script(Reply.empty(), Reply.text("  \n"), Reply.empty())
    chat = make_chat(server)
    for _ in range(2):
        with pytest.raises(ProviderError, match="empty reply"):
            chat.complete(QUESTION)
    with pytest.raises(ProviderError, match="empty reply"):
        list(chat.stream(QUESTION))
    assert len(server.chat_requests) == 3  # an empty reply is not retried


def test_a_body_that_is_not_json_is_an_error(server: ScriptedChatServer) -> None:
    server.script(Reply.garbage())
    with pytest.raises(ProviderError, match="scripted-model"):
        make_chat(server).complete(QUESTION)


# ---------------------------------------------------------------- streaming


def test_stream_deltas_join_to_the_full_text(server: ScriptedChatServer) -> None:
    text = "Vector search ranks passages by meaning; 关键词检索按词匹配。 It is fast."
    server.script(Reply.text(text), Reply.text(text))
    chat = make_chat(server)
    pieces = list(chat.stream(QUESTION))
    assert len(pieces) > 5
    assert "".join(pieces) == text == chat.complete(QUESTION).text
    streamed, whole = server.chat_bodies
    assert streamed["stream"] is True and "stream" not in whole
    assert (streamed["temperature"], streamed["top_p"]) == (0.3, 0.9)


def test_stream_arrives_piece_by_piece(server: ScriptedChatServer) -> None:
    server.script(Reply(content="one two three four", stream_pause=0.3))
    chat = make_chat(server)
    started = time.monotonic()
    arrivals = [time.monotonic() - started for _ in chat.stream(QUESTION)]
    assert len(arrivals) == 4
    assert arrivals[0] < 0.25 and arrivals[-1] > 0.85  # the first did not wait for the last


def test_stream_that_breaks_off_is_an_error(server: ScriptedChatServer) -> None:
    server.script(Reply(content="one two three", stream_pause=2.0))
    pieces: list[str] = []
    with pytest.raises(ProviderError, match="stream interrupted") as caught:
        for piece in make_chat(server, timeout=0.3).stream(QUESTION):
            pieces.append(piece)
    assert pieces == ["one"]
    assert_no_key(caught.value)


def test_stream_json_mode_falls_back_too(server: ScriptedChatServer) -> None:
    server.script(Reply.rejects_response_format(), Reply.json({"ok": True}))
    assert json.loads("".join(make_chat(server).stream(QUESTION, JSON))) == {"ok": True}
    first, second = server.chat_bodies
    assert "response_format" in first and "response_format" not in second


# ---------------------------------------------------------------- failures and retries


def test_rate_limit_then_success_honours_retry_after(server: ScriptedChatServer) -> None:
    server.script(Reply.error(429, "slow down", retry_after=0.4), Reply.text("fine"))
    assert make_chat(server).complete(QUESTION).text == "fine"
    first, second = server.chat_requests
    assert second.at - first.at >= 0.4
    assert second.body == first.body


def test_retry_after_is_capped_and_tries_are_bounded(server: ScriptedChatServer) -> None:
    server.script(*[Reply.error(429, "quota", retry_after=120)] * 3)
    started = time.monotonic()
    with pytest.raises(ProviderError, match="HTTP 429") as caught:
        make_chat(server, max_retry_after=0.2).complete(QUESTION)
    assert time.monotonic() - started < 60  # the 0.2 s cap twice, not the 120 s asked
    assert len(server.chat_requests) == 3 and server.pending == 0
    assert_no_key(caught.value)


def test_server_error_storm_fails_after_bounded_tries(server: ScriptedChatServer) -> None:
    server.script(*[Reply.error(500, "engine overloaded")] * 10)
    started = time.monotonic()
    with pytest.raises(ProviderError) as caught:
        make_chat(server, backoff=0.1).complete(QUESTION)
    elapsed = time.monotonic() - started
    assert elapsed >= 0.3  # slept 0.1 + 0.2 between the three tries
    assert len(server.chat_requests) == 3
    message = str(caught.value)
    assert server.url in message and "scripted-model" in message
    assert "HTTP 500" in message and "engine overloaded" in message and "3 tries" in message
    assert_no_key(caught.value)


def test_timeout_is_an_error(server: ScriptedChatServer) -> None:
    server.script(Reply.slow(3.0), Reply.slow(3.0))
    with pytest.raises(ProviderError, match="timed out") as caught:  # replies after 3 s
        make_chat(server, timeout=0.3, attempts=2).complete(QUESTION)
    assert len(server.chat_requests) == 2  # a timeout is retried, a bounded number of times
    assert_no_key(caught.value)


def test_timeout_then_success(server: ScriptedChatServer) -> None:
    server.script(Reply.slow(3.0), Reply.text("second time lucky"))
    assert make_chat(server, timeout=0.3).complete(QUESTION).text == "second time lucky"


def test_response_format_rejected_is_retried_without_and_remembered(
    server: ScriptedChatServer,
) -> None:
    server.script(Reply.rejects_response_format(), Reply.json({"a": 1}), Reply.json({"b": 2}))
    chat = make_chat(server)
    assert json.loads(chat.complete(QUESTION, JSON).text) == {"a": 1}
    assert json.loads(chat.complete(QUESTION, JSON).text) == {"b": 2}
    rejected, retried, later = server.chat_bodies
    assert rejected["response_format"] == {"type": "json_object"}
    assert "response_format" not in retried and "response_format" not in later
    assert retried["messages"] == rejected["messages"]
    assert not chat.json_mode_supported
    assert make_chat(server).json_mode_supported  # remembered per instance, not globally


def test_other_client_errors_are_not_retried(server: ScriptedChatServer) -> None:
    server.script(Reply.error(400, "messages: too long"), Reply.text("never sent"))
    with pytest.raises(ProviderError, match="HTTP 400: messages: too long"):
        make_chat(server).complete(QUESTION, JSON)
    assert len(server.chat_requests) == 1 and server.pending == 1


def test_api_key_never_appears_in_errors(server: ScriptedChatServer) -> None:
    server.script(Reply.error(401, f"Incorrect API key provided: {KEY}"))
    with pytest.raises(ProviderError, match="HTTP 401") as caught:
        make_chat(server).complete(QUESTION)
    assert_no_key(caught.value)
    assert "***" in str(caught.value)
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_connection_refused_names_the_url() -> None:
    with ScriptedChatServer() as closed:
        url = closed.url
    retry = RetryPolicy(attempts=2, backoff=0.01)
    chat = OpenAIChat(url, "scripted-model", KEY, timeout=1.0, retry=retry)
    with pytest.raises(ProviderError, match="2 tries") as caught:
        chat.complete(QUESTION)
    assert url in str(caught.value)
    assert_no_key(caught.value)


def test_no_key_for_a_local_server(
    server: ScriptedChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)  # must not leak to a server we gave no key
    server.script(Reply.text("local"))
    assert OpenAIChat(server.url, "qwen2.5:7b").complete(QUESTION).text == "local"
    assert KEY not in server.chat_requests[0].headers.get("authorization", "")


def test_json_mode_rejected_in_other_words(server: ScriptedChatServer) -> None:
    server.script(Reply.error(422, "Unsupported value: json_object"), Reply.json({"a": 1}))
    assert json.loads(make_chat(server).complete(QUESTION, JSON).text) == {"a": 1}
    assert [("response_format" in body) for body in server.chat_bodies] == [True, False]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(Exception, match="http"):
        OpenAIChat("localhost:11434/v1", "m")
    with pytest.raises(ValueError, match="attempts"):
        OpenAIChat("http://localhost:11434/v1", "m", retry=RetryPolicy(attempts=0))


# ---------------------------------------------------------------- the base class


class Echo(ChatModel):
    """A provider that cannot stream: the base class must stream for it."""

    def __init__(self) -> None:
        super().__init__(name="echo")
        self.calls: list[Sampling] = []

    def _complete(self, messages: list[ChatMessage], sampling: Sampling) -> ChatReply:
        self.calls.append(sampling)
        return ChatReply(messages[-1].content, "echo", "stop", None, None, 0.0)


def test_default_stream_yields_the_whole_completion_once() -> None:
    echo = Echo()
    assert list(echo.stream(QUESTION, JSON)) == [QUESTION[-1].content]
    assert echo.calls == [Sampling(json_mode=True, temperature=0.3, top_p=0.9)]


def test_base_class_checks_messages_and_emptiness() -> None:
    echo = Echo()
    with pytest.raises(ValueError, match="message"):
        echo.complete([])
    with pytest.raises(ProviderError, match="echo: empty reply"):
        echo.complete([ChatMessage("user", " ")])
    assert echo.complete(QUESTION).seconds >= 0
