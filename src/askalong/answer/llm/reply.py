"""Reading a chat model's reply: the JSON answer, whole or as it streams in.

``parse_reply`` accepts what real servers send: a bare JSON object (JSON mode), a
Markdown-fenced ```json block (servers without JSON mode, chatty models), or the first
JSON object found anywhere in the text. Anything else is None: the caller asks again.
Field types are checked, not trusted; a quote with no usable text is left out here and
the quote check judges the rest.

``AnswerStream`` pulls the ``"answer"`` string out of a reply while it is still
arriving, decoding JSON escapes as they complete, so the direct answer can be shown as
it is written. It stays silent for a reply that is not JSON, and for one whose
``"status"`` says ``not_covered`` before the answer starts.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from askalong.types import AnswerStatus

_FENCED = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_ANSWER_KEY = re.compile(r'(?<!\\)"answer"\s*:\s*"')
_NOT_COVERED = re.compile(r'(?<!\\)"status"\s*:\s*"not_covered"')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


@dataclass(frozen=True)
class ClaimedQuote:
    """A quote as the model wrote it: its number ``n``, the source it names, its text."""

    n: int
    source: int
    text: str


@dataclass(frozen=True)
class ModelReply:
    status: AnswerStatus
    answer: str
    quotes: tuple[ClaimedQuote, ...]
    explanation: str = ""


def parse_reply(text: str) -> ModelReply | None:
    """The model's answer, or None when no JSON object of the right shape is in ``text``."""
    for candidate in _candidates(text):
        reply = _reply_of(candidate)
        if reply is not None:
            return reply
    return None


def _candidates(text: str) -> Iterator[Any]:
    """Decoded JSON values, most likely first: the whole text, fenced blocks, then each
    object starting at a ``{``."""
    for chunk in [text.strip(), *(m.group(1).strip() for m in _FENCED.finditer(text))]:
        with contextlib.suppress(ValueError):
            yield json.loads(chunk)
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        with contextlib.suppress(ValueError):
            yield decoder.raw_decode(text, match.start())[0]


def _reply_of(value: Any) -> ModelReply | None:
    if not isinstance(value, dict) or not isinstance(value.get("answer"), str):
        return None
    quotes = _quotes(value.get("quotes"))
    said = value.get("status")
    status: AnswerStatus = "answered" if quotes else "not_covered"
    if said == "answered" or said == "not_covered":
        status = said
    explanation = value.get("explanation")
    return ModelReply(
        status=status,
        answer=value["answer"],
        quotes=quotes,
        explanation=explanation.strip() if isinstance(explanation, str) else "",
    )


def _quotes(items: Any) -> tuple[ClaimedQuote, ...]:
    out = []
    for position, item in enumerate(items if isinstance(items, list) else [], start=1):
        if not isinstance(item, dict):
            continue
        n = _integer(item.get("n", item.get("number")), default=position)
        source = _integer(item.get("source"), default=0)
        text = item.get("text", item.get("quote"))
        if isinstance(text, str) and text.strip() and n is not None and source is not None:
            out.append(ClaimedQuote(n, source, text))
    return tuple(out)


def _integer(value: Any, *, default: int) -> int | None:
    """An int, a numeric string ("2", "#2", "source 2"), ``default`` when absent, else None."""
    if value is None:
        return default
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and (digits := re.search(r"\d+", value)):
        return int(digits.group())
    return None


# ------------------------------------------------------------------------- streaming


class AnswerStream:
    """Feed it the reply's pieces; it returns the newly readable text of ``"answer"``."""

    def __init__(self) -> None:
        self._buffer = ""
        self._start: int | None = None  # where the answer string's characters begin
        self._cursor = 0  # the next undecoded character of the buffer
        self._done = False
        self.text = ""  # the answer so far

    def feed(self, piece: str) -> str:
        self._buffer += piece
        if self._done:
            return ""
        if self._start is None and not self._find_start():
            return ""
        decoded = self._decode()
        self.text += decoded
        return decoded

    def _find_start(self) -> bool:
        match = _ANSWER_KEY.search(self._buffer)
        if match is None or _NOT_COVERED.search(self._buffer, 0, match.start()):
            self._done = match is not None
            return False
        self._start = self._cursor = match.end()
        return True

    def _decode(self) -> str:
        out = []
        buffer, at = self._buffer, self._cursor
        while at < len(buffer):
            char = buffer[at]
            if char == '"':
                self._done = True
                break
            if char != "\\":
                out.append(char)
                at += 1
                continue
            escaped = _escape(buffer, at)
            if escaped is None:  # the escape is not complete yet: wait for more
                break
            text, at = escaped
            out.append(text)
        self._cursor = at
        return "".join(out)


def _escape(buffer: str, at: int) -> tuple[str, int] | None:
    """The character a JSON escape at ``buffer[at]`` stands for and where it ends, or None
    when the buffer ends inside it. A ``\\u`` high surrogate waits for its low half."""
    if at + 1 >= len(buffer):
        return None
    kind = buffer[at + 1]
    if kind != "u":
        return _ESCAPES.get(kind, kind), at + 2
    if at + 6 > len(buffer):
        return None
    code = int(buffer[at + 2 : at + 6], 16) if _is_hex(buffer[at + 2 : at + 6]) else 0xFFFD
    if 0xD800 <= code < 0xDC00:
        if at + 12 > len(buffer):
            return None
        low = buffer[at + 8 : at + 12]
        if buffer[at + 6 : at + 8] == "\\u" and _is_hex(low) and 0xDC00 <= int(low, 16) < 0xE000:
            pair = 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)
            return chr(pair), at + 12
        return "\ufffd", at + 6
    return ("\ufffd" if 0xDC00 <= code < 0xE000 else chr(code)), at + 6


def _is_hex(text: str) -> bool:
    return len(text) == 4 and all(c in "0123456789abcdefABCDEF" for c in text)
