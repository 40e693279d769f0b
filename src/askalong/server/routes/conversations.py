"""The asker's chat conversations: ``GET /api/conversations``.

Contract
========

``GET /api/conversations`` → ``{"conversations": [{"id", "document_id": null, "title",
"created", "updated", "turns": <count>, "anchor": null}]}``: the caller's conversations with
the knowledge-base agent (threads ``POST /api/chat`` opened), most recently updated first.
A reader thread (``POST /api/ask``) is not one, whether asked on one document or several.
Each is private to its owner, as every thread is; it is read, renamed, deleted and exported
by the thread routes (``/api/threads/{id}``: 404 unless it is the caller's). ``turns`` counts
the turns ``GET /api/threads/{id}`` shows the caller (``routes/threads.shown_turns``): a turn
hidden there (its document made private since) is not counted either.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.routes.documents import ERRORS
from askalong.server.routes.threads import shown_turns
from askalong.types import Access
from askalong.values.threads import Thread
from askalong.wire import ThreadSummaryJSON, thread_summary_json

router = APIRouter(prefix="/api", tags=["threads"])

# The stored answers of a chat turn name the agent (``agent/chat_agent.stored_answer``).
AGENT_ANSWERER = "agent-"


class ConversationList(BaseModel):
    conversations: list[ThreadSummaryJSON]  # most recently updated first


@router.get("/conversations", response_model=ConversationList, responses=ERRORS)
async def list_conversations(state: StateDep, access: AccessDep) -> ConversationList:
    """The caller's chat conversations, newest first, each with its number of turns."""
    return await run_in_threadpool(_conversations, state, access)


def _conversations(state: ServerState, access: Access) -> ConversationList:
    store = state.library.store
    out = []
    for thread in store.list_threads(access):
        if _is_chat(state, thread):
            count = len(shown_turns(store, thread.id, access))
            out.append(thread_summary_json(thread, count, None))
    return ConversationList(conversations=out)


def _is_chat(state: ServerState, thread: Thread) -> bool:
    """A conversation is opened on no one document, its first turn the agent's answer."""
    if thread.document_id is not None:
        return False
    turns = state.library.store.turns(thread.id)
    return bool(turns) and (turns[0].answer.answerer or "").startswith(AGENT_ANSWERER)
