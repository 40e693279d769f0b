"""A thread exported as Markdown: ``GET /api/threads/{id}/export``.

Contract
========

``200`` ``text/markdown; charset=utf-8``: the thread's questions in order, each with where it
was asked, the answer, its quotes (page and section, the verdict) and how it was checked
(``server/thread_markdown.py``). ``Content-Disposition: attachment`` with a file name made
from the thread's title (``routes/documents.content_disposition``: never a path), ending in
``.md``. ``404`` when the thread is not the asker's, as every thread route.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from askalong.errors import NotFound
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.routes.documents import ERRORS, content_disposition
from askalong.server.routes.threads import thread_with_turns
from askalong.server.schemas import IdPath
from askalong.server.thread_markdown import thread_markdown
from askalong.types import Access

router = APIRouter(prefix="/api", tags=["threads"])

MARKDOWN = "text/markdown; charset=utf-8"
EXPORT_RESPONSES = {**ERRORS, 200: {"content": {MARKDOWN: {"schema": {"type": "string"}}}}}


@router.get("/threads/{thread}/export", response_class=Response, responses=EXPORT_RESPONSES)
async def export_thread(thread: IdPath, state: StateDep, access: AccessDep) -> Response:
    """The thread as a Markdown file: questions, answers, quotes with page and section."""
    title, text = await run_in_threadpool(_export, state, thread, access)
    disposition = content_disposition(title, "markdown")
    return Response(text, media_type=MARKDOWN, headers={"Content-Disposition": disposition})


def _export(state: ServerState, thread_id: str, access: Access) -> tuple[str, str]:
    thread = thread_with_turns(state, thread_id, access)
    document = _document_title(state, thread["document_id"], access)
    return thread["title"], thread_markdown(thread, document)


def _document_title(state: ServerState, document_id: str | None, access: Access) -> str | None:
    """The title of the thread's document; None when it is gone (a thread may outlive it)."""
    if document_id is None:
        return None
    try:
        return state.library.store.get_document(document_id, access).title
    except NotFound:
        return None
