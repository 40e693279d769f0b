"""An upload's progress as Server-Sent Events: what ``POST /api/documents`` answers when
the request accepts ``text/event-stream`` (the library page's upload does).

The events, in order: ``progress`` ``{stage, done, total}`` as the document is read
(``parse``: pages parsed; ``ocr``: scanned pages read by OCR), throttled
(``parse/progress.py``); then ``done`` with the upload's JSON (the non-streamed
answer's body), or ``error`` ``{type, message, source}``. The work runs in a
thread of its own, in a slot for long steps (``busy.LongWork``); its reports cross to the
response through the event loop's queue. Vectors follow ``done``, from the server's
background embedder.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import asdict
from typing import Literal, get_args

from askalong.errors import AskAlongError
from askalong.parse.progress import Progress, Sink
from askalong.server.busy import LongWork
from askalong.server.sse import error_data, sse_message

log = logging.getLogger("askalong.server")

UploadEventName = Literal["progress", "done", "error"]
UPLOAD_EVENT_NAMES: tuple[UploadEventName, ...] = get_args(UploadEventName)
# The work: given a sink for its progress, the JSON body of the finished upload.
UploadWork = Callable[[Sink], Mapping[str, object]]
_Event = tuple[UploadEventName, Mapping[str, object]]


def upload_stream(work: UploadWork, long_work: LongWork) -> AsyncIterator[bytes]:
    """``work`` started now in one of ``long_work``'s slots (``Busy`` when none is free,
    before the stream begins), its progress and outcome as SSE messages. The events
    cross from the work's thread to the event loop: no pool thread waits for them."""
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[_Event] = asyncio.Queue()

    def put(event: _Event) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: the server stopped
            loop.call_soon_threadsafe(events.put_nowait, event)

    long_work.start(functools.partial(_run, work, put))
    return _messages(events)


async def _messages(events: asyncio.Queue[_Event]) -> AsyncIterator[bytes]:
    while True:
        name, data = await events.get()
        yield sse_message(name, data)
        if name != "progress":
            return


def _run(work: UploadWork, put: Callable[[_Event], None]) -> None:
    def sink(progress: Progress) -> None:
        put(("progress", asdict(progress)))

    try:
        put(("done", work(sink)))
    except AskAlongError as exc:
        put(("error", error_data(type(exc).__name__, exc.message, exc.source)))
    except Exception as exc:  # the stream has started: report it in-band, never hang up
        log.exception("adding a document failed")
        put(("error", error_data("InternalError", str(exc) or type(exc).__name__)))
