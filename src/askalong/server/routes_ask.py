"""Asking about what one reads: ``POST /api/ask`` (answering is wired in by ``askalong.answer``).

Until then the endpoint answers **501** ``{"error": {"type": "NotImplemented", "message":
"answering is not available yet"}}``; the reader shows that message in its side panel.

Contract
========

Request (JSON, ``AskIn``)::

    {"document_id": "faa5aceb428cdeb9",
     "question": "",                       # may be empty when intent is given
     "intent": "explain",                  # "explain" | "example" | "compare" | null
     "anchor": {"block_id": "b42", "start": 10, "end": 96,
                "selected_text": "…"},     # null on a follow-up keeps the thread's anchor
     "thread_id": null,                    # null starts a new thread
     "stream": true}

Offsets are Unicode code points of ``Block.text``, as everywhere in the API.

Streaming (``stream: true`` or ``Accept: text/event-stream``): ``text/event-stream``, one
typed event per SSE message, ``data`` is one JSON object. In order:

``thread``        ``{"thread_id", "turn_id", "anchor": {document_id, block_id, start, end,
                  selected_text, page, section_path}}`` — first, so the reader can show the
                  anchor chip at once.
``retrieval``     ``{"hits": [{"chunk_id", "page_start", "page_end", "section_path",
                  "spans": [{"block_id", "start", "end"}]}], "notes": [...]}`` — evidence found.
``answer_delta``  ``{"text": "..."}`` — a piece of the direct answer, appended as it comes;
                  may repeat.
``quote``         ``{"index": 1, "block_id", "start", "end", "text", "page",
                  "section_path": [...]}`` — a verbatim quote; ``text`` equals
                  ``block.text[start:end]``.
``verdict``       ``{"index": 1, "verdict": "supported" | "weak" | "unsupported" |
                  "not_found", "note": "..."}`` — the check of quote ``index``.
``explanation``   ``{"text": "..."}`` — optional, the explanation after the quotes.
``done``          ``{"answer": <the non-stream answer JSON>, "thread_id", "turn_id"}``.
``error``         ``{"type", "message", "source"}`` — then the stream ends.

Non-stream (``stream: false``): ``200`` with the answer JSON::

    {"thread_id", "turn_id", "anchor": {...}, "answer": "...", "explanation": "...",
     "covered": true, "quotes": [{"index", "block_id", "start", "end", "text", "page",
     "section_path", "verdict", "note"}]}

Errors before the stream starts use the API's usual JSON error shape and status.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from askalong.server.errors import error_response
from askalong.server.schemas import AskIn, ErrorOut

router = APIRouter(prefix="/api", tags=["ask"])

NOT_YET = "answering is not available yet"


@router.post("/ask", status_code=200, responses={501: {"model": ErrorOut}})
async def ask(body: AskIn) -> JSONResponse:
    """Ask about a document, anchored to a selection; see the module docstring."""
    return error_response(501, "NotImplemented", NOT_YET)
