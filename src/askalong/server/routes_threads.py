"""Threads and turns of read-along questions (filled in with answering; 501 until then).

Contract
========

``GET /api/documents/{doc}/threads`` → ``{"threads": [{"id", "document_id", "title",
"created", "updated", "turns": <count>, "anchor": {...}}]}``, newest first. ``title`` is the
first question (or intent and selected text).

``GET /api/threads/{id}`` → ``{"id", "document_id", "title", "created", "turns": [{"id",
"question", "intent", "anchor": {document_id, block_id, start, end, selected_text, page,
section_path}, "answer": <the ask endpoint's non-stream answer JSON>, "created"}]}``.

``DELETE /api/threads/{id}`` → 204.

A new turn is added by ``POST /api/ask`` with ``thread_id``; its ``anchor`` (or the
thread's last anchor when null) is recorded on the turn, so a reopened thread shows each
turn's anchor chip.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from askalong.server.errors import error_response
from askalong.server.routes_ask import NOT_YET
from askalong.server.schemas import ErrorOut

router = APIRouter(prefix="/api", tags=["threads"])
NOT_AVAILABLE: dict[int | str, dict[str, Any]] = {501: {"model": ErrorOut}}


@router.get("/documents/{doc}/threads", responses=NOT_AVAILABLE)
async def list_threads(doc: str) -> JSONResponse:
    """The document's threads, newest first (see the module docstring)."""
    return error_response(501, "NotImplemented", NOT_YET)


@router.get("/threads/{thread}", responses=NOT_AVAILABLE)
async def get_thread(thread: str) -> JSONResponse:
    """One thread with its turns and their anchors."""
    return error_response(501, "NotImplemented", NOT_YET)


@router.delete("/threads/{thread}", responses=NOT_AVAILABLE)
async def delete_thread(thread: str) -> JSONResponse:
    """Remove a thread and its turns."""
    return error_response(501, "NotImplemented", NOT_YET)
