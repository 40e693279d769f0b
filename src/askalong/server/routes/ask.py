"""Asking about what one reads: ``POST /api/ask``.

Contract
========

Request (JSON, ``AskIn``)::

    {"document_id": "faa5aceb428cdeb9",    # id or unique id prefix
     "collection": null,                   # or a collection's id or name (asked as one);
                                           #   no document_id, collection or documents:
                                           #   every document the caller may read
     "question": "",                       # may be empty when intent is given
     "intent": "explain",                  # "explain" | "example" | "compare" | null (= "ask")
     "anchor": {"block_id": "b42", "start": 10, "end": 96,
                "selected_text": "…"},     # null on a follow-up keeps the thread's last anchor
     "thread_id": null,                    # null starts a new thread
     "documents": [],                      # more document ids asked as one (optional)
     "whole": false,                       # true: the whole document(s), no anchor; on a
                                           #   follow-up it drops the thread's anchor
     "title_language": "zh",               # "en" | "zh" | null: the asker's interface; a
                                           #   bare intent's new thread is titled in it
     "stream": true}

Offsets are Unicode code points of ``Block.text``, as everywhere in the API.

The answer JSON is exactly ``askalong.wire.answer_json`` (what ``askalong ask --json``
prints): ``status`` ``answered | not_covered`` (with ``searched``: what was looked at),
``answer``, ``quotes`` ``[{number, document_id, block_id, start, end, text, page,
section_path, verdict}]`` (``text == block.text[start:end]``), ``explanation``, ``claims``
``[{text, quotes, verdict, reasons}]``, ``anchor``, ``thread_id``, ``turn_id``, ``answerer``,
``notes``, ``timings``, ``anchor_set_aside`` (as in ``retrieval``)... Verdicts:
``supported | weak | suspicious | unverified``.

Streaming (``stream: true``): ``text/event-stream``, one typed event per SSE message, its
``data`` one JSON object. In order:

- ``thread``: ``{thread_id, turn_id, anchor: {document_id, block_id, start, end,
  selected_text, page, section_path} | null}``, the resolved anchor.
- ``retrieval``: ``{passages: [{document_id, origin, page_start, page_end, section_path,
  spans: [{block_id, start, end}]}], searched: [...], notes: [...], anchor_set_aside}``;
  ``anchor_set_aside`` is ``"unrelated"`` (the question shares no terms with the anchor)
  or ``"other_section"`` (it names another part of the document) when the question was
  answered from the whole document instead of the anchor, else ``null``.
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

from typing import Annotated, Any, cast

from fastapi import APIRouter, Query
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from askalong.asking.limits import MAX_ID_CHARS
from askalong.asking.question import Question
from askalong.context.anchor import locate_anchor
from askalong.context.compare_targets import compare_targets
from askalong.errors import InputError
from askalong.server.deps import AccessDep, AskerDep, ServerState, StateDep
from askalong.server.recheck import Visible
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import AnchorIn, AskIn, CompareTargetsOut, DocPath, ErrorOut
from askalong.server.sse import EVENT_NAMES, sse_stream
from askalong.types import INTENTS, Access, Anchor, BlockSpan, Intent
from askalong.wire import AnswerJSON, answer_json

router = APIRouter(prefix="/api", tags=["ask"])

STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
# One SSE message as a schema checker reads it: its event name and its data (a JSON text).
ASK_EVENT_SCHEMA = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {"event": {"enum": list(EVENT_NAMES)}, "data": {"type": "string"}},
}
ANSWER_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    413: {"model": ErrorOut},  # a question, selection or id over its limit
    200: {
        "description": "The answer JSON (``stream: false``), or its events as "
        "text/event-stream (``stream: true``, the default; listed in the description).",
        "content": {"application/json": {}, "text/event-stream": {"schema": ASK_EVENT_SCHEMA}},
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
    library = state.library
    refs = ([] if body.document_id is None else [body.document_id]) + body.documents
    named = tuple(library.store.get_document(ref, access) for ref in dict.fromkeys(refs))
    members = (
        () if body.collection is None else tuple(library.collection(body.collection, access)[1])
    )
    anchor = None
    if body.anchor is not None:
        if body.document_id is None:
            raise InputError("an anchor needs document_id", source="anchor")
        anchor = anchor_of(named[0].id, body.anchor)
    if anchor is not None and body.whole:
        raise InputError("an anchor and whole: true contradict", source="anchor")
    seen = {d.id for d in named}
    documents = named + tuple(d for d in members if d.id not in seen)
    return Question(
        body.question,
        cast(Intent, intent),
        anchor,
        documents,
        body.thread_id,
        whole=body.whole,
        title_language=body.title_language,
    )


def anchor_of(document_id: str, given: AnchorIn) -> Anchor:
    """The core's anchor; a selection over several blocks is anchored at its first span
    unless a block is named too."""
    spans = tuple(BlockSpan(s.block_id, s.start, s.end) for s in given.spans)
    block_id, start, end = given.block_id, given.start, given.end
    if block_id is None and spans:
        block_id, start, end = spans[0].block_id, spans[0].start, spans[0].end
    return Anchor(document_id, block_id, start, end, given.selected_text, spans)


@router.get("/documents/{doc}/compare-targets", response_model=CompareTargetsOut, responses=ERRORS)
async def get_compare_targets(
    doc: DocPath,
    state: StateDep,
    access: AccessDep,
    block: Annotated[str | None, Query(max_length=MAX_ID_CHARS)] = None,
) -> CompareTargetsOut:
    """What a selection in ``block`` might be compared with (the reader's "Compare with…"
    suggestions): names near it, then the document's other headings."""
    return await run_in_threadpool(targets_of, state, doc, block, access)


def targets_of(
    state: ServerState, doc: str, block: str | None, access: Access
) -> CompareTargetsOut:
    store = state.library.store
    document = store.get_document(doc, access)
    blocks = store.blocks(document.id)
    located = None if block is None else locate_anchor(blocks, Anchor(document.id, block))
    return CompareTargetsOut(targets=compare_targets(blocks, located))
