"""Threads and turns of read-along questions.

Contract
========

``GET /api/documents/{doc}/threads`` → ``{"threads": [{"id", "document_id", "title",
"created", "updated", "turns": <count>, "anchor": <the last turn's anchor>}]}``, most
recently updated first. ``title`` is the first question (an intent alone is phrased as a
question, e.g. "Explain this.").

``GET /api/threads/{id}`` → ``{"id", "document_id", "title", "created", "updated",
"turns": [{"id", "index", "question", "intent", "anchor", "answer": <the answer JSON of
POST /api/ask>, "created"}]}``. A turn that quotes, retrieved or is anchored in a document
the caller may no longer see (made private since) is left out, here, in the export and in
the ``turns`` counts of the thread lists (this list's and ``GET /api/conversations``'s):
``shown_turns`` is the one rule for all of them.

Every ``anchor`` here is ``{document_id, block_id, start, end, selected_text, page,
section_path}`` or null.

``PATCH /api/threads/{id}`` with ``{"title": "…"}`` → the thread as ``GET`` returns it,
renamed (400 for a blank title, 404 if it is not the asker's).

``DELETE /api/threads/{id}`` → 204; the thread and its turns are gone (404 if it is not
the asker's).

``GET /api/threads/{id}/export`` → the thread as Markdown (``routes/export.py``).

A new turn is added by ``POST /api/ask`` with ``thread_id``; its ``anchor`` (or the
thread's last anchor when null) is recorded on the turn, so a reopened thread shows each
turn's anchor chip. Threads are private to their owner (``current_access``).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from askalong.context.anchor import anchor_place
from askalong.errors import NotFound
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.recheck import Visible
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import DocPath, IdPath, ThreadList, ThreadRename
from askalong.store.base import DocumentStore, Store
from askalong.types import Access, Anchor, Block
from askalong.values.threads import Turn
from askalong.wire import (
    PlacedAnchorJSON,
    ThreadJSON,
    placed_anchor_json,
    thread_json,
    thread_summary_json,
    turn_json,
)

router = APIRouter(prefix="/api", tags=["threads"])


@router.get("/documents/{doc}/threads", response_model=ThreadList, responses=ERRORS)
async def list_threads(doc: DocPath, state: StateDep, access: AccessDep) -> ThreadList:
    """The document's threads, most recently updated first, each with its number of turns
    and its last turn's anchor."""
    return await run_in_threadpool(_threads, state, doc, access)


@router.get("/threads/{thread}", response_model=ThreadJSON, responses=ERRORS)
async def get_thread(thread: IdPath, state: StateDep, access: AccessDep) -> ThreadJSON:
    """One thread with its turns, each with its anchor and answer."""
    return await run_in_threadpool(thread_with_turns, state, thread, access)


@router.patch("/threads/{thread}", response_model=ThreadJSON, responses=ERRORS)
async def rename_thread(
    thread: IdPath, body: ThreadRename, state: StateDep, access: AccessDep
) -> ThreadJSON:
    """Give a thread a new title (its first question until then)."""
    await run_in_threadpool(state.library.store.rename_thread, thread, body.title, access)
    return await run_in_threadpool(thread_with_turns, state, thread, access)


@router.delete("/threads/{thread}", status_code=204, responses=ERRORS)
async def delete_thread(thread: IdPath, state: StateDep, access: AccessDep) -> Response:
    """Remove a thread and its turns."""
    await run_in_threadpool(state.library.store.delete_thread, thread, access)
    return Response(status_code=204)


def _threads(state: ServerState, ref: str, access: Access) -> ThreadList:
    store = state.library.store
    document = store.get_document(ref, access)
    out = []
    for thread in store.list_threads(access, document_id=document.id):
        turns = shown_turns(store, thread.id, access)
        last = turns[-1].anchor if turns else None
        out.append(thread_summary_json(thread, len(turns), _anchor(store, last)))
    return ThreadList(threads=out)


def thread_with_turns(state: ServerState, thread_id: str, access: Access) -> ThreadJSON:
    """The thread's JSON form, each turn's anchor placed (page and section)."""
    store = state.library.store
    thread = store.get_thread(thread_id, access)
    _require_readable(store, thread.document_id, access)
    shown = shown_turns(store, thread.id, access)
    turns = [turn_json(turn, _anchor(store, turn.anchor)) for turn in shown]
    return thread_json(thread, turns)


def shown_turns(store: Store, thread_id: str, access: Access) -> list[Turn]:
    """The thread's turns the caller is shown, when it is opened and when it is counted in a
    list (the count must not tell that hidden turns exist): those whose every quoted,
    retrieved or anchored document the caller may still see (a deleted one aside). A chat
    turn quoting a document made private since, or a reader turn asked across documents,
    is left out rather than shown (fail closed)."""
    visible = Visible(store, access)
    kept = []
    for turn in store.turns(thread_id):
        answer = turn.answer
        named = {q.document_id for q in answer.quotes} | {h.document_id for h in answer.hits}
        named |= {turn.anchor.document_id} if turn.anchor is not None else set()
        if visible.everything or all(
            i in visible.titles or not store.has_document(i) for i in named
        ):
            kept.append(turn)
    return kept


def _require_readable(store: DocumentStore, document_id: str | None, access: Access) -> None:
    """A thread on a document the caller may no longer see (its visibility changed) is
    not shown (fail closed); one whose document was deleted still is."""
    if document_id is not None and store.has_document(document_id):
        store.get_document(document_id, access)


def _anchor(store: DocumentStore, anchor: Anchor | None) -> PlacedAnchorJSON | None:
    """The anchor with its block's page and section (a vanished block leaves them empty)."""
    if anchor is None:
        return None
    place = anchor_place(anchor, _block(store, anchor))
    return placed_anchor_json(place.anchor, place.page, place.section_path)


def _block(store: DocumentStore, anchor: Anchor) -> Block | None:
    if anchor.block_id is None:
        return None
    try:
        return store.block(anchor.document_id, anchor.block_id)
    except NotFound:
        return None
