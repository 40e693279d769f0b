"""A scripted stand-in for an OpenAI-compatible server, speaking the real wire format.

A real HTTP server on 127.0.0.1 (port 0) in a thread. ``/v1/chat/completions``
replays a queue of scripted ``Reply`` values, as plain JSON or as SSE chunks when the
request says ``stream: true`` (usage, finish_reason and tool calls included);
``/v1/embeddings`` answers with deterministic vectors; ``/v1/rerank`` (and
``/rerank``) scores documents by word overlap unless a rerank reply is scripted.
Every request is recorded, so tests can assert exactly what a model was sent, and how
long each took to serve (``served``: the model's own time, measured here); setting
``embedding_delay`` makes every embeddings reply wait (a slow search, to see calls overlap)::

    from chat_server import Reply, ScriptedChatServer

    with ScriptedChatServer(Reply.error(429, retry_after=1), Reply.text("hi")) as server:
        chat = OpenAIChat(server.url, "m")
        ...
        assert server.chat_bodies[-1]["temperature"] == 0.3
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WORD = re.compile(r"[\u3400-\u9fff]|\w+")


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Build it with the class methods below."""

    content: str | None = "OK"
    status: int = 200
    message: str = ""  # the error message of a non-200 reply
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0  # seconds before the server answers at all
    stream_pause: float = 0.0  # seconds before each streamed chunk after the first piece
    finish_reason: str = "stop"
    tool_arguments: str | None = None  # a tool-call reply: these are the arguments
    calls: tuple[tuple[str, str], ...] = ()  # several tool calls: (name, arguments JSON)
    raw: bytes | None = None  # a 200 reply whose body is exactly these bytes
    scores: tuple[float, ...] | None = None  # a rerank reply: one score per document
    score_key: str = "relevance_score"
    bare_list: bool = False  # a rerank reply as a top-level list (TEI style)

    @classmethod
    def text(cls, content: str, *, finish_reason: str = "stop", delay: float = 0.0) -> Reply:
        return cls(content=content, finish_reason=finish_reason, delay=delay)

    @classmethod
    def json(cls, value: Any) -> Reply:
        return cls(content=json.dumps(value, ensure_ascii=False))

    @classmethod
    def fenced(cls, value: Any) -> Reply:
        """JSON inside a Markdown code fence, as chatty models like to answer."""
        body = json.dumps(value, ensure_ascii=False, indent=2)
        return cls(content=f"Here is the answer:\n```json\n{body}\n```\n")

    @classmethod
    def malformed(cls) -> Reply:
        return cls(content='{"answer": "cut off in the middle, "citations": [1, ')

    @classmethod
    def empty(cls) -> Reply:
        return cls(content="")

    @classmethod
    def tool_call(cls, arguments: Any) -> Reply:
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return cls(content=None, tool_arguments=text, finish_reason="tool_calls")

    @classmethod
    def tool_calls(cls, *calls: tuple[str, Any]) -> Reply:
        """Several calls in one reply, ids ``call_1``...; streamed, their arguments arrive
        in pieces interleaved across the calls, each piece naming its call by ``index``."""
        texts = tuple(
            (name, value if isinstance(value, str) else json.dumps(value)) for name, value in calls
        )
        return cls(content=None, calls=texts, finish_reason="tool_calls")

    @classmethod
    def error(cls, status: int, message: str = "", *, retry_after: float | None = None) -> Reply:
        headers = (("Retry-After", f"{retry_after:g}"),) if retry_after is not None else ()
        return cls(
            content=None, status=status, message=message or f"error {status}", headers=headers
        )

    @classmethod
    def rejects_response_format(cls) -> Reply:
        return cls.error(400, "response_format is not supported by this model")

    @classmethod
    def slow(cls, seconds: float, content: str = "too late") -> Reply:
        return cls(content=content, delay=seconds)

    @classmethod
    def garbage(cls) -> Reply:
        """A 200 whose body is not JSON at all (a proxy's HTML page)."""
        return cls(raw=b"<html><body>Bad gateway</body></html>")

    @classmethod
    def rerank(cls, scores: list[float], *, key: str = "relevance_score") -> Reply:
        return cls(scores=tuple(scores), score_key=key)


@dataclass(frozen=True)
class Received:
    """A request as the server saw it; ``at`` is ``time.monotonic()`` on arrival."""

    path: str
    headers: dict[str, str]  # names in lower case
    body: Any
    at: float


class ScriptedChatServer:
    """Context manager: ``url`` is the base URL to give a client (ends in ``/v1``)."""

    def __init__(
        self,
        *replies: Reply,
        default: Reply | None = None,
        embedding_dimension: int = 8,
        word_vectors: bool = False,
    ) -> None:
        """``word_vectors``: each text's words hashed into the vector's dimensions, so that
        texts sharing words are near (a search that ranks by meaning, roughly); otherwise
        a digest of the whole text (deterministic, and near nothing)."""
        self.default = default
        self.embedding_dimension = embedding_dimension
        self.word_vectors = word_vectors
        self.embedding_delay = 0.0  # seconds before each embeddings reply
        # Once the script is used up: the reply to a chat request, made from its body.
        self.responder: Callable[[Any], Reply] | None = None
        self._served: list[tuple[str, float]] = []
        self._chat: deque[Reply] = deque(replies)
        self._rerank: deque[Reply] = deque()
        self._received: list[Received] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> ScriptedChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()  # wakes any handler that is sleeping out a scripted delay
        if self._thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._chat.extend(replies)

    def script_rerank(self, *replies: Reply) -> None:
        with self._lock:
            self._rerank.extend(replies)

    @property
    def requests(self) -> list[Received]:
        with self._lock:
            return list(self._received)

    @property
    def chat_requests(self) -> list[Received]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def chat_bodies(self) -> list[Any]:
        return [r.body for r in self.chat_requests]

    @property
    def served(self) -> list[tuple[str, float]]:
        """(path, seconds from arrival to the last byte sent) per request answered."""
        with self._lock:
            return list(self._served)

    @property
    def pending(self) -> int:
        """Scripted chat replies not yet served."""
        with self._lock:
            return len(self._chat)

    # ------------------------------------------------------------------ used by the handler

    def record(self, request: Received) -> None:
        with self._lock:
            self._received.append(request)

    def record_served(self, path: str, seconds: float) -> None:
        with self._lock:
            self._served.append((path, seconds))

    def next_chat(self, body: Any = None) -> Reply:
        with self._lock:
            if self._chat:
                return self._chat.popleft()
        if self.responder is not None:
            return self.responder(body)
        return self.default or Reply.error(500, "the scripted replies are used up")

    def next_rerank(self) -> Reply | None:
        with self._lock:
            return self._rerank.popleft() if self._rerank else None

    def wait(self, seconds: float) -> bool:
        """Sleep; False when the server is closing meanwhile."""
        return not self._stop.wait(seconds) if seconds > 0 else True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], handler: type, scripted: ScriptedChatServer):
        super().__init__(address, handler)
        self.scripted = scripted


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        pass

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        else:
            self._json(404, _error_body(404, f"no route {self.path}"))

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body: Any = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        scripted = self.server.scripted
        arrived = time.monotonic()
        scripted.record(Received(self.path, _lower(self.headers.items()), body, arrived))
        # A client that gave up (a timeout) has closed its end: nothing to answer.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._route(body)
        scripted.record_served(self.path, time.monotonic() - arrived)

    def _route(self, body: Any) -> None:
        path = self.path.rstrip("/")
        if path.endswith("/chat/completions"):
            self._chat(self.server.scripted.next_chat(body), body)
        elif path.endswith("/embeddings"):
            if not self.server.scripted.wait(self.server.scripted.embedding_delay):
                return
            scripted = self.server.scripted
            vector = _word_vector if scripted.word_vectors else _vector
            self._json(200, _embeddings(body, scripted.embedding_dimension, vector))
        elif path.endswith("/rerank"):
            self._rerank(self.server.scripted.next_rerank() or Reply(), body)
        else:
            self._json(404, _error_body(404, f"no route {self.path}"))

    # ------------------------------------------------------------------ chat

    def _chat(self, reply: Reply, body: Any) -> None:
        if not self.server.scripted.wait(reply.delay):
            return
        unanswered = _unanswered_calls(body)
        if unanswered:  # as real endpoints refuse it, before any scripted reply
            message = f"tool_call_ids without a tool message: {', '.join(unanswered)}"
            self._json(400, _error_body(400, message))
        elif reply.status != 200:
            self._json(reply.status, _error_body(reply.status, reply.message), reply.headers)
        elif reply.raw is not None:
            self._send(200, reply.raw, "text/html", reply.headers)
        elif isinstance(body, dict) and body.get("stream"):
            self._sse(reply, body)
        else:
            self._json(200, _completion(reply, body), reply.headers)

    def _sse(self, reply: Reply, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        for name, value in reply.headers:
            self.send_header(name, value)
        self.end_headers()
        for number, chunk in enumerate(_chunks(reply, body)):
            # The role chunk and the first piece go out together; then each piece waits.
            if number > 1 and not self.server.scripted.wait(reply.stream_pause):
                return
            self.wfile.write(b"data: " + json.dumps(chunk).encode("utf-8") + b"\n\n")
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    # ------------------------------------------------------------------ rerank

    def _rerank(self, reply: Reply, body: Any) -> None:
        if not self.server.scripted.wait(reply.delay):
            return
        if reply.status != 200:
            self._json(reply.status, _error_body(reply.status, reply.message), reply.headers)
            return
        documents = [d["text"] if isinstance(d, dict) else d for d in body["documents"]]
        scores = reply.scores or tuple(_overlap(body["query"], d) for d in documents)
        order = sorted(range(len(scores)), key=lambda i: -scores[i])[: body.get("top_n") or None]
        results = [
            {"index": i, reply.score_key: scores[i], "document": {"text": documents[i]}}
            for i in order
        ]
        answer = results if reply.bare_list else {"model": body.get("model"), "results": results}
        self._json(200, answer)

    # ------------------------------------------------------------------ plumbing

    def _json(self, status: int, value: Any, headers: tuple[tuple[str, str], ...] = ()) -> None:
        data = json.dumps(value, ensure_ascii=False).encode("utf-8")
        self._send(status, data, "application/json", headers)

    def _send(
        self, status: int, data: bytes, kind: str, headers: tuple[tuple[str, str], ...]
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


# ---------------------------------------------------------------------- wire format


def _unanswered_calls(body: Any) -> list[str]:
    """The ids of an assistant message's tool calls that no later ``tool`` message
    answers by ``tool_call_id`` (an endpoint answers such a request 400)."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return []
    asked: list[str] = []
    answered: set[str] = set()
    for message in messages:
        if not isinstance(message, dict):
            continue
        asked += [str(call.get("id")) for call in message.get("tool_calls") or []]
        if message.get("role") == "tool":
            answered.add(str(message.get("tool_call_id")))
    return [call_id for call_id in asked if call_id not in answered]


def _error_body(status: int, message: str) -> dict[str, Any]:
    kind = "rate_limit_error" if status == 429 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "code": status}}


def _usage(reply: Reply, body: Any) -> dict[str, int]:
    messages = body.get("messages", []) if isinstance(body, dict) else []
    prompt = sum(len(WORD.findall(str(m.get("content", "")))) for m in messages)
    completion = len(WORD.findall(reply.content or reply.tool_arguments or ""))
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _tool_calls(arguments: str, streamed: bool) -> list[dict[str, Any]]:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "answer", "arguments": arguments},
    }
    return [{"index": 0, **call}] if streamed else [call]


def _call(index: int, name: str, arguments: str) -> dict[str, Any]:
    return {
        "id": f"call_{index + 1}",
        "type": "function",
        "function": {"name": name, "arguments": arguments},
    }


def _streamed_calls(calls: tuple[tuple[str, str], ...]) -> Iterator[list[dict[str, Any]]]:
    """Each call opened (index, id, name, no arguments yet), then the arguments' pieces
    round-robin across the calls, one piece per chunk, as real servers interleave them."""
    for index, (name, _) in enumerate(calls):
        yield [{"index": index, **_call(index, name, "")}]
    pieces = [_pieces(text) for _, text in calls]
    for round_ in range(max((len(p) for p in pieces), default=0)):
        for index, own in enumerate(pieces):
            if round_ < len(own):
                yield [{"index": index, "function": {"arguments": own[round_]}}]


def _completion(reply: Reply, body: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_arguments is not None:
        message["tool_calls"] = _tool_calls(reply.tool_arguments, streamed=False)
    if reply.calls:
        message["tool_calls"] = [_call(i, name, text) for i, (name, text) in enumerate(reply.calls)]
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "scripted") if isinstance(body, dict) else "scripted",
        "choices": [
            {"index": 0, "message": message, "finish_reason": reply.finish_reason, "logprobs": None}
        ],
        "usage": _usage(reply, body),
    }


def _pieces(text: str) -> list[str]:
    """Split into word-sized pieces that join back to exactly ``text``."""
    return re.findall(r"\s*\S+|\s+", text)


def _chunks(reply: Reply, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", "scripted"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(reply.content or ""):
        yield chunk({"content": piece})
    if reply.tool_arguments is not None:
        opening = _tool_calls("", streamed=True)
        yield chunk({"tool_calls": opening})
        for piece in _pieces(reply.tool_arguments):
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
    yield from (chunk({"tool_calls": pieces}) for pieces in _streamed_calls(reply.calls))
    yield chunk({}, reply.finish_reason)
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {**chunk({}), "choices": [], "usage": _usage(reply, body)}


def _embeddings(
    body: Any, dimension: int, vector: Callable[[str, int], list[float]]
) -> dict[str, Any]:
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    data = [
        {"object": "embedding", "index": i, "embedding": vector(str(text), dimension)}
        for i, text in enumerate(texts)
    ]
    return {"object": "list", "data": data, "model": body.get("model"), "usage": {}}


def _vector(text: str, dimension: int) -> list[float]:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(dimension)]


def _word_vector(text: str, dimension: int) -> list[float]:
    """Each word counted in the dimension its digest picks, then unit length."""
    counts = [0.0] * dimension
    for word in WORD.findall(text.lower()):
        counts[hashlib.sha256(word.encode("utf-8")).digest()[0] % dimension] += 1.0
    norm = sum(c * c for c in counts) ** 0.5 or 1.0
    return [c / norm for c in counts]


def _overlap(query: str, document: str) -> float:
    """The share of the query's words found in the document, in [0, 1]."""
    wanted = set(WORD.findall(query.lower()))
    found = set(WORD.findall(document.lower()))
    return round(len(wanted & found) / len(wanted), 4) if wanted else 0.0


def _lower(headers: Any) -> dict[str, str]:
    """Header names in lower case, so tests need not guess a client's spelling."""
    return {name.lower(): value for name, value in headers}
