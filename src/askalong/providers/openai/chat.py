"""Chat completions from any OpenAI-compatible endpoint, through the official SDK.

Works with DeepSeek, Qwen (compatible mode), vLLM, Ollama, llama.cpp server and
OpenAI. The SDK's own retries are off: the providers' one retry policy (``http.py``)
retries 429, 5xx, dropped connections and timeouts, a bounded number of times with
exponential backoff, honouring ``Retry-After`` up to a cap, so the worst case is known.
Then a ``ProviderError`` names the base URL, the model and the last status. The API key
is sent as a bearer token and scrubbed from every message we raise.

JSON mode sends ``response_format={"type": "json_object"}``; a server that rejects
it (HTTP 400 or 422 naming ``response_format`` or ``json_object``) is asked again
without it, and this instance stops sending it. A reply that is a tool call (no
content) is returned as the first call's ``arguments`` text, which is the JSON the
caller asked for, unless tools were offered (``Sampling.tools``): then the calls come back
as ``ChatReply.tool_calls`` and the text is the content alone. ``tool_choice`` is sent as
the endpoint spells it (a tool's name as ``{"type": "function", "function": {"name"}}``).
Streamed (``complete_streamed``), the calls' pieces are accumulated by ``index``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

try:
    import openai
    from openai.types.chat import ChatCompletion, ChatCompletionChunk
except ImportError as exc:  # an optional extra: say how to get it
    raise ImportError(
        "the OpenAI-compatible chat provider needs the openai package: pip install 'askalong[llm]'"
    ) from exc

from askalong.errors import ConfigError, ProviderError
from askalong.providers.chat import (
    TOOL_CHOICES,
    ChatMessage,
    ChatModel,
    ChatReply,
    Sampling,
    ToolCall,
    ToolSpec,
    accumulated_calls,
)
from askalong.providers.http import RetriesExhausted, Retry, RetryPolicy, retryable_status

JSON_MODE = {"type": "json_object"}


class OpenAIChat(ChatModel):
    """An OpenAI-style ``/chat/completions`` endpoint."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout: float = 60.0,
        *,
        retry: RetryPolicy | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"chat base URL {base_url!r} must start with http(s)://")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retry = retry or RetryPolicy()
        self.json_mode_supported = True  # turned off once the server rejects it
        self._secret = api_key
        # Local servers need no key, but the SDK insists on one (and would otherwise
        # read OPENAI_API_KEY from the environment behind our back).
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=api_key or "none", timeout=timeout, max_retries=0
        )
        super().__init__(name=f"{model} at {self.base_url}")

    def close(self) -> None:
        self._client.close()

    def _complete(self, messages: list[ChatMessage], sampling: Sampling) -> ChatReply:
        params = self._params(messages, sampling)
        completion = self._create(params)
        if not isinstance(completion, ChatCompletion):
            raise self._error(f"unexpected reply of type {type(completion).__name__}")
        return self._reply(completion, tools=bool(sampling.tools))

    def _stream(self, messages: list[ChatMessage], sampling: Sampling) -> Iterator[str]:
        params = self._params(messages, sampling)
        chunks = self._create({**params, "stream": True})
        try:
            for chunk in chunks:
                yield from _deltas(chunk)
        except openai.OpenAIError as exc:  # the stream broke after it had started
            raise self._error(f"stream interrupted: {self._describe(exc)}") from exc
        finally:
            chunks.close()

    def _stream_reply(self, messages: list[ChatMessage], sampling: Sampling) -> ChatReply:
        """A streamed completion read whole: the content's pieces joined, each chunk's
        ``delta.tool_calls`` pieces accumulated by ``index``, the usage when sent."""
        params = {**self._params(messages, sampling), "stream": True}
        params["stream_options"] = {"include_usage": True}
        chunks = self._create(params)
        text: list[str] = []
        deltas: list[list[dict[str, Any]]] = []
        finish, model, usage = None, self.model, None
        try:
            for chunk in chunks:
                model, usage = chunk.model or model, chunk.usage or usage
                for choice in chunk.choices:
                    text.append(choice.delta.content or "")
                    deltas.append([c.model_dump() for c in choice.delta.tool_calls or []])
                    finish = choice.finish_reason or finish
        except openai.OpenAIError as exc:
            raise self._error(f"stream interrupted: {self._describe(exc)}") from exc
        finally:
            chunks.close()
        try:
            calls = accumulated_calls(deltas)
        except ValueError as exc:
            raise self._error(str(exc)) from exc
        return ChatReply(
            text="".join(text),
            model=model,
            finish_reason=finish,
            usage_prompt_tokens=usage.prompt_tokens if usage else None,
            usage_completion_tokens=usage.completion_tokens if usage else None,
            seconds=0.0,
            tool_calls=calls,
        )

    # ------------------------------------------------------------------ requests

    def _params(self, messages: list[ChatMessage], sampling: Sampling) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model,
            "messages": [_message(m) for m in messages],
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
        }
        if sampling.max_tokens is not None:
            params["max_tokens"] = sampling.max_tokens
        if sampling.json_mode and self.json_mode_supported:
            params["response_format"] = JSON_MODE
        if sampling.tools:
            params["tools"] = [_tool(tool) for tool in sampling.tools]
            params["tool_choice"] = _tool_choice(sampling.tool_choice)
        return params

    def _create(self, params: dict[str, Any]) -> Any:
        """The SDK call, retried; a rejected ``response_format`` is dropped once."""
        try:
            return self.retry.run(lambda: self._attempt(params))
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            if "response_format" not in params or not _rejects_json_mode(exc):
                raise self._error(self._describe(exc)) from exc
            self.json_mode_supported = False
            without = {k: v for k, v in params.items() if k != "response_format"}
            return self._create(without)
        except RetriesExhausted as exc:
            raise self._error(exc.message) from exc
        except openai.OpenAIError as exc:
            raise self._error(self._describe(exc)) from exc

    def _attempt(self, params: dict[str, Any]) -> Any:
        """One SDK call; a failure worth another try becomes ``Retry``."""
        try:
            return self._client.chat.completions.create(**params)
        except openai.APIStatusError as exc:
            if not retryable_status(exc.status_code):
                raise
            raise Retry(self._describe(exc), exc.response.headers.get("retry-after")) from exc
        except openai.APIConnectionError as exc:  # includes timeouts
            raise Retry(self._describe(exc)) from exc

    # ------------------------------------------------------------------ replies

    def _reply(self, completion: ChatCompletion, *, tools: bool = False) -> ChatReply:
        if not completion.choices:
            raise self._error("reply has no choices")
        choice = completion.choices[0]
        message = choice.message
        calls = tuple(
            ToolCall(c.id, c.function.name, c.function.arguments or "")
            for c in message.tool_calls or []
            if c.type == "function"
        )
        text = message.content or ("" if tools else next((c.arguments for c in calls), ""))
        usage = completion.usage
        return ChatReply(
            text=text,
            model=completion.model or self.model,
            finish_reason=choice.finish_reason,
            usage_prompt_tokens=usage.prompt_tokens if usage else None,
            usage_completion_tokens=usage.completion_tokens if usage else None,
            seconds=0.0,  # the base class times the whole call
            tool_calls=calls if tools else (),
        )

    def _describe(self, exc: openai.OpenAIError) -> str:
        if isinstance(exc, openai.APIStatusError):
            return f"HTTP {exc.status_code}: {_reason(exc)}"
        if isinstance(exc, openai.APITimeoutError):
            return "timed out"
        return f"{type(exc).__name__}: {exc}"

    def _error(self, problem: str) -> ProviderError:
        message = f"chat model {self.model!r}: {problem}"
        if self._secret:
            message = message.replace(self._secret, "***")
        return ProviderError(message, source=self.base_url)


def _message(message: ChatMessage) -> dict[str, Any]:
    """A message as the endpoint reads it: an assistant's calls, a tool reply's call id."""
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def _tool(tool: ToolSpec) -> dict[str, Any]:
    function = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
    return {"type": "function", "function": dict(function)}


def _tool_choice(choice: str) -> str | dict[str, Any]:
    if choice in TOOL_CHOICES:
        return choice
    return {"type": "function", "function": {"name": choice}}


def _rejects_json_mode(exc: openai.APIStatusError) -> bool:
    reason = _reason(exc).lower()
    return any(word in reason for word in ("response_format", "response format", "json_object"))


def _reason(exc: openai.APIStatusError) -> str:
    """The server's own words: ``error.message`` when the body has one, else the text."""
    body = exc.body
    if isinstance(body, Mapping):
        error = body.get("error", body)
        detail = error.get("message") if isinstance(error, Mapping) else error
        if detail:
            return str(detail)[:300]
    return exc.response.text[:300] or exc.response.reason_phrase


def _deltas(chunk: ChatCompletionChunk) -> Iterator[str]:
    """The text a chunk adds: content, or tool-call argument fragments."""
    for choice in chunk.choices:
        delta = choice.delta
        if delta.content:
            yield delta.content
        for call in delta.tool_calls or []:
            if call.function is not None and call.function.arguments:
                yield call.function.arguments
