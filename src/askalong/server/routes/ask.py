"""Asking about what one reads: ``POST /api/ask``.

Contract
========

Request (JSON, ``AskIn``)::

    {"document_id": "faa5aceb428cdeb9",    # id or unique id prefix
     "collection": null,                   # or a collection's id or name (asked as one)
     "question": "",                       # may be empty when intent is given
     "intent": "explain",                  # "explain" | "example" | "compare" | null (= "ask")
     "anchor": {"block_id": "b42", "start": 10, "end": 96,
                "selected_text": "…"},     # null on a follow-up keeps the thread's last anchor
     "thread_id": null,                    # null starts a new thread
     "stream": true}

Offsets are Unicode code points of ``Block.text``, as everywhere in the API.

The answer JSON is exactly ``askalong.wire.answer_json`` (what ``askalong ask --json``
prints): ``status`` ``answered | not_covered`` (with ``searched``: what was looked at),
``answer``, ``quotes`` ``[{number, document_id, block_id, start, end, text, page,
section_path, verdict}]`` (``text == block.text[start:end]``), ``explanation``, ``claims``
``[{text, quotes, verdict, reasons}]``, ``anchor``, ``thread_id``, ``turn_id``, ``answerer``,
``notes``, ``timings``... Verdicts: ``supported | weak | suspicious | unverified``.

Streaming (``stream: true``): ``text/event-stream``, one typed event per SSE message, its
``data`` one JSON object. In order:

- ``thread``: ``{thread_id, turn_id, anchor: {document_id, block_id, start, end,
  selected_text, page, section_path} | null}``, the resolved anchor.
- ``retrieval``: ``{passages: [{document_id, origin, page_start, page_end, section_path,
  spans: [{block_id, start, end}]}], searched: [...], notes: [...]}``.
- ``answer_delta``: ``{text}``, a piece of the direct answer; may repeat (append them).
- ``quote``: a quote as in the answer JSON, before it is checked.
- ``verdict``: ``{number, verdict}``, the check of quote ``number``.
- ``explanation``: ``{text}``, when there is one.
- ``done``: ``{answer: <the answer JSON>}``, stored; the authority on all before it.
- ``error``: ``{type, message, source}``, then the stream ends.

A not-covered answer streams ``thread``, ``retrieval`` and ``done`` only. The turn is stored
when ``done`` is sent; a stream broken off earlier stores nothing.

Non-stream (``stream: false``): ``200`` with the answer JSON.

Errors found before the stream starts (unknown document or thread, a span outside its
block, an empty question) use the API's usual JSON error shape and status.
"""

from __future__ import annotations

from typing import Any, cast

from fastapi import APIRouter
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from askalong.asking.question import Question
from askalong.errors import InputError
from askalong.server.deps import AccessDep, AskerDep, ServerState, StateDep
from askalong.server.recheck import Visible
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import AskIn, ErrorOut
from askalong.server.sse import sse_stream
from askalong.types import INTENTS, Access, Anchor, Intent
from askalong.wire import AnswerJSON, answer_json

router = APIRouter(prefix="/api", tags=["ask"])

STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
ANSWER_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    413: {"model": ErrorOut},  # a question, selection or id over its limit
    200: {
        "description": "The answer JSON (``stream: false``), or its events as "
        "text/event-stream (``stream: true``, the default; listed in the description).",
        "content": {"application/json": {}, "text/event-stream": {"schema": {"type": "string"}}},
    },
}


# The OpenAPI description is this module's contract: the schema can type the answer JSON
# but not the events of a stream, so they are listed there.
@router.post("/ask", response_model=AnswerJSON, responses=ANSWER_RESPONSES, description=__doc__)
async def ask(
    body: AskIn, state: StateDep, access: AccessDep, asker: AskerDep
) -> AnswerJSON | Response:
    """Ask about a document, anchored to a selection."""
    question = await run_in_threadpool(question_of, state, body, access)
    visible = await run_in_threadpool(Visible, state.library.store, access)
    if not body.stream:
        answer = await run_in_threadpool(asker.ask, question, access)
        visible.require_answer(answer)
        return answer_json(answer)
    events = visible.events(asker.stream(question, access))
    first = await run_in_threadpool(next, events)  # failures up to here are JSON errors
    return StreamingResponse(
        sse_stream(first, events), media_type="text/event-stream", headers=STREAM_HEADERS
    )


def question_of(state: ServerState, body: AskIn, access: Access) -> Question:
    """The core's question; the document and collection references are resolved (and
    access checked) here, once: the core trusts the resolved documents."""
    intent = body.intent or "ask"
    if intent not in INTENTS:
        raise InputError(f"intent {intent!r}; valid: {', '.join(INTENTS)}", source="intent")
    if body.document_id is None and body.collection is None:
        raise InputError("give document_id or collection", source="document_id")
    library = state.library
    named = (
        () if body.document_id is None else (library.store.get_document(body.document_id, access),)
    )
    members = (
        () if body.collection is None else tuple(library.collection(body.collection, access)[1])
    )
    anchor = None
    if body.anchor is not None:
        if not named:
            raise InputError("an anchor needs document_id", source="anchor")
        given = body.anchor
        anchor = Anchor(named[0].id, given.block_id, given.start, given.end, given.selected_text)
    documents = named + tuple(d for d in members if not named or d.id != named[0].id)
    return Question(body.question, cast(Intent, intent), anchor, documents, body.thread_id)
