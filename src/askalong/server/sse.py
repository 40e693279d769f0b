"""The asking events (``askalong.asking.events``) as Server-Sent Events: one typed SSE message
per event, its ``data`` one JSON object (the shapes are listed in ``routes/ask.py``)."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any, Literal, TypeVar, get_args

from starlette.concurrency import iterate_in_threadpool

from askalong.asking.events import (
    Answered,
    AnswerText,
    AskEvent,
    EvidenceFound,
    ExplanationText,
    QuoteChecked,
    QuoteFound,
    ThreadStarted,
)
from askalong.errors import AskAlongError
from askalong.wire import answer_json, passage_json, placed_anchor_json, quote_json

log = logging.getLogger("askalong.server")
_Event = TypeVar("_Event")
_Named = tuple[str, Mapping[str, object]]  # an event's SSE name and data

# The SSE event names, in the order a stream sends them (``error`` ends a failed one). The
# reader's copy is generated from this tuple (``server/contract.py``).
EventName = Literal[
    "thread", "retrieval", "answer_delta", "quote", "verdict", "explanation", "done", "error"
]
EVENT_NAMES: tuple[EventName, ...] = get_args(EventName)


def sse_message(name: str, data: Mapping[str, object]) -> bytes:
    """One SSE message: an asking event's (``EventName``) or an upload's (``upload_events``)."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


async def sse_stream(first: AskEvent, rest: Iterator[AskEvent]) -> AsyncIterator[bytes]:
    """``first`` (already taken, so errors before it were plain JSON errors), then the rest
    as they come, each drawn in the thread pool; a failure ends the stream with ``error``."""
    async for message in named_stream(first, rest, named):
        yield message


async def named_stream(
    first: _Event, rest: Iterator[_Event], name: Callable[[_Event], _Named]
) -> AsyncIterator[bytes]:
    """``sse_stream`` for any events ``name`` gives the SSE name and data of (the chat's)."""
    yield sse_message(*name(first))
    try:
        async for event in iterate_in_threadpool(rest):
            yield sse_message(*name(event))
    except AskAlongError as exc:
        yield sse_message("error", error_data(type(exc).__name__, exc.message, exc.source))
    except Exception as exc:  # the stream has started: report it in-band, never hang up silently
        log.exception("answering failed")
        yield sse_message("error", error_data("InternalError", str(exc) or type(exc).__name__))


def error_data(kind: str, message: str, source: str | None = None) -> dict[str, Any]:
    return {"type": kind, "message": message, "source": source}


def named(event: AskEvent) -> tuple[EventName, Mapping[str, object]]:
    """The SSE event name and JSON payload of one asking event."""
    match event:
        case ThreadStarted():
            anchor = placed_anchor_json(event.anchor, event.page, event.section_path)
            return "thread", {
                "thread_id": event.thread_id,
                "turn_id": event.turn_id,
                "anchor": anchor,
            }
        case EvidenceFound():
            passages = [passage_json(u) for u in event.units]
            return "retrieval", {
                "passages": passages,
                "searched": list(event.searched),
                "notes": list(event.notes),
                "anchor_set_aside": event.set_aside,
            }
        case AnswerText():
            return "answer_delta", {"text": event.text}
        case QuoteFound():
            return "quote", quote_json(event.quote)
        case QuoteChecked():
            return "verdict", {"number": event.number, "verdict": event.verdict}
        case ExplanationText():
            return "explanation", {"text": event.text}
        case Answered():
            return "done", {"answer": answer_json(event.answer)}
