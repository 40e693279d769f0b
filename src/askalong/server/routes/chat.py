"""Asking the knowledge base in a chat: ``POST /api/chat``.

Contract
========

Request (JSON, ``ChatIn``)::

    {"question": "What is a tablespace? And also what does VACUUM do?",
     "conversation_id": null,          # null starts a conversation (a thread)
     "collections": [],                # collection ids or names; none: every document
                                       #   the caller may see
     "stream": true}

The answer JSON is exactly ``askalong.wire.chat_json`` (what ``askalong chat --json``
prints, README "JSON output"): ``status``, ``answer``, ``parts``, ``sources`` (number,
document, page, span, verdict), ``claims``, ``steps`` (the tool calls), ``limits_hit``,
``citation_precision``, ``citation_recall``, ``conversation_id``, ``turn_id``, ``notes``,
``timings``.

Streaming (``stream: true``): ``text/event-stream``, one typed event per SSE message, its
``data`` one JSON object, in the style of ``/api/ask``. In order:

- ``conversation``: ``{conversation_id, turn_id, mode}`` (``mode``: ``offline`` | ``model``).
- ``tool_call``: ``{name, arguments}``, a tool starting ("searching: …").
- ``tool_result``: a tool step as in the answer's ``steps`` (``summary``: "3 passages").
- ``part``: ``{index, question, status, answer, sources}``, one part answered.
- ``done``: ``{answer: <the answer JSON>}``, stored; the authority on all before it.
- ``error``: ``{type, message, source}``, then the stream ends.

Non-stream (``stream: false``): ``200`` with the answer JSON. Errors found before the
stream starts (an empty question, an unknown conversation or collection) use the API's
usual JSON error shape and status.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from askalong.agent.chat_agent import ChatAgent, ChatRequest
from askalong.server.chat_events import CHAT_EVENT_NAMES, chat_stream
from askalong.server.deps import AccessDep, AskerDep, ServerState, StateDep
from askalong.server.routes.ask import ANSWER_RESPONSES, STREAM_HEADERS
from askalong.server.schemas import IdText, QuestionText
from askalong.types import Access, Document
from askalong.wire import ChatJSON, chat_json

router = APIRouter(prefix="/api", tags=["chat"])

MAX_COLLECTIONS = 50
# Each SSE message as a client parses it: its event name and its data (one JSON object).
CHAT_EVENT_SCHEMA = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {"event": {"enum": list(CHAT_EVENT_NAMES)}, "data": {"type": "string"}},
}
CHAT_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ANSWER_RESPONSES,
    200: {
        "description": "The answer JSON (``stream: false``), or its events as "
        "text/event-stream (``stream: true``, the default; listed in the description).",
        "content": {"application/json": {}, "text/event-stream": {"schema": CHAT_EVENT_SCHEMA}},
    },
}


class ChatIn(BaseModel):
    question: QuestionText
    conversation_id: IdText | None = None
    collections: list[IdText] = Field(default_factory=list, max_length=MAX_COLLECTIONS)
    stream: bool = True


@router.post("/chat", response_model=ChatJSON, responses=CHAT_RESPONSES, description=__doc__)
async def chat(
    body: ChatIn, state: StateDep, access: AccessDep, asker: AskerDep
) -> ChatJSON | Response:
    """Ask the knowledge base; each part of the question is searched and cited."""
    documents = await run_in_threadpool(_documents, state, body.collections, access)
    request = ChatRequest(body.question, access, documents, body.conversation_id)
    agent = ChatAgent(asker, state.library.store, state.library.settings)
    if not body.stream:
        return chat_json(await run_in_threadpool(agent.ask, request))
    events = agent.stream(request)
    first = await run_in_threadpool(next, events)  # failures up to here are JSON errors
    return StreamingResponse(
        chat_stream(first, events), media_type="text/event-stream", headers=STREAM_HEADERS
    )


def _documents(state: ServerState, refs: list[str], access: Access) -> tuple[Document, ...]:
    """The collections' documents the caller may see, each once (resolved here, at the
    edge, with the caller's access: the core trusts them)."""
    found: dict[str, Document] = {}
    for ref in dict.fromkeys(refs):
        for document in state.library.collection(ref, access)[1]:
            found.setdefault(document.id, document)
    return tuple(found.values())
