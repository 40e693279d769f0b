"""An upload's progress as Server-Sent Events: what ``POST /api/documents`` answers when
the request accepts ``text/event-stream`` (the library page's upload does).

The events, in order: ``progress`` ``{stage, done, total}`` as the document is read
(``parse``: pages parsed; ``ocr``: scanned pages read by OCR; ``vectors``: chunks given
vectors), throttled (``parse/progress.py``); then ``done`` with the upload's JSON (the
non-streamed answer's body), or ``error`` ``{type, message, source}``. The work runs in a
thread of its own; its reports cross to the response through a queue.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import asdict
from typing import Literal, get_args

from starlette.concurrency import iterate_in_threadpool

from askalong.errors import AskAlongError
from askalong.parse.progress import Progress, Sink
from askalong.server.sse import error_data, sse_message

log = logging.getLogger("askalong.server")

UploadEventName = Literal["progress", "done", "error"]
UPLOAD_EVENT_NAMES: tuple[UploadEventName, ...] = get_args(UploadEventName)
# The work: given a sink for its progress, the JSON body of the finished upload.
UploadWork = Callable[[Sink], Mapping[str, object]]
_Event = tuple[UploadEventName, Mapping[str, object]]


async def upload_stream(work: UploadWork) -> AsyncIterator[bytes]:
    """``work``'s progress and outcome as SSE messages."""
    async for name, data in iterate_in_threadpool(upload_events(work)):
        yield sse_message(name, data)


def upload_events(work: UploadWork) -> Iterator[_Event]:
    """``work`` run in a thread: its progress events as they come, then ``done`` or ``error``."""
    events: queue.Queue[_Event] = queue.Queue()
    threading.Thread(target=_run, args=(work, events), name="askalong-upload", daemon=True).start()
    while True:
        name, data = events.get()
        yield name, data
        if name != "progress":
            return


def _run(work: UploadWork, events: queue.Queue[_Event]) -> None:
    def sink(progress: Progress) -> None:
        events.put(("progress", asdict(progress)))

    try:
        events.put(("done", work(sink)))
    except AskAlongError as exc:
        events.put(("error", error_data(type(exc).__name__, exc.message, exc.source)))
    except Exception as exc:  # the stream has started: report it in-band, never hang up
        log.exception("adding a document failed")
        events.put(("error", error_data("InternalError", str(exc) or type(exc).__name__)))
