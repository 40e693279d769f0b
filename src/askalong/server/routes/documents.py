"""Documents: list, upload, structure, delete, and the stored original."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.responses import FileResponse
from starlette.concurrency import run_in_threadpool

from askalong.errors import InputError
from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import AddOutcome
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.schemas import (
    DocPath,
    DocumentList,
    ErrorOut,
    StructureOut,
    UploadOut,
    VisibilityIn,
)
from askalong.server.uploads import receive_upload
from askalong.types import Access, Visibility
from askalong.wire import DocumentJSON, document_json

router = APIRouter(prefix="/api", tags=["documents"])

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    404: {"model": ErrorOut},
    413: {"model": ErrorOut},  # a value over its maxLength (the server counts code points)
    503: {"model": ErrorOut},
}
UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {"file": {"type": "string", "format": "binary"}},
                }
            }
        },
    }
}
MEDIA_TYPES = {
    "pdf": "application/pdf",
    "html": "text/html",
    "markdown": "text/markdown",
    "text": "text/plain",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
SUFFIXES = {"pdf": ".pdf", "html": ".html", "markdown": ".md", "text": ".txt", "docx": ".docx"}


@router.get("/documents", response_model=DocumentList)
async def list_documents(state: StateDep, access: AccessDep) -> DocumentList:
    """The documents the caller may see, newest first."""
    docs = await run_in_threadpool(state.library.store.list_documents, access)
    return DocumentList(documents=[document_json(d) for d in docs])


@router.post(
    "/documents",
    response_model=UploadOut,
    status_code=201,
    openapi_extra=UPLOAD_BODY,
    responses={**ERRORS, 413: {"model": ErrorOut}},
)
async def upload_document(
    request: Request, state: StateDep, access: AccessDep, tasks: BackgroundTasks
) -> UploadOut:
    """Add a document sent as multipart field ``file`` (PDF, HTML, Markdown, text, DOCX).

    The same content sent twice is the same document (status ``exists``). It is
    keyword-searchable when this returns; its vectors are computed afterwards.
    """
    received = await receive_upload(request, state.library.settings.max_file_bytes)
    upload = Upload(received.data, source=received.name, name=received.name)
    outcome = await run_in_threadpool(_add, state, upload, access)
    if outcome.document is None:  # add_upload raises on failure; this is only a guard
        raise InputError(outcome.error or "the document was not added", source=received.name)
    tasks.add_task(_embed_pending, state)
    return UploadOut(
        status=outcome.status,
        document=document_json(outcome.document),
        blocks=outcome.blocks,
        chunks=outcome.chunks,
    )


def _add(state: ServerState, upload: Upload, access: Access) -> AddOutcome:
    """Parse outside the write lock (the guard serialises parses itself); lock the writes."""
    return state.library.ingestor.add_upload(upload, access, writes=state.writes)


def _embed_pending(state: ServerState) -> None:
    """Fill in vectors after the response; a failure leaves keyword search working."""
    with state.writes:
        pending = state.library.indexes.pending_vectors()
        if pending:
            state.library.indexes.embed(pending)


@router.get("/documents/{doc}", response_model=StructureOut, responses=ERRORS)
async def get_document(doc: DocPath, state: StateDep, access: AccessDep) -> StructureOut:
    """A document (id or unique id prefix) with its pages, blocks and headings outline."""
    return await run_in_threadpool(_structure, state, doc, access)


def _structure(state: ServerState, ref: str, access: Access) -> StructureOut:
    document = state.library.store.get_document(ref, access)
    return StructureOut.of(document, state.library.store.blocks(document.id))


@router.delete("/documents/{doc}", status_code=204, responses=ERRORS)
async def delete_document(doc: DocPath, state: StateDep, access: AccessDep) -> None:
    """Remove a document with its blocks, chunks, index entries and stored original."""
    await run_in_threadpool(_remove, state, doc, access)


def _remove(state: ServerState, ref: str, access: Access) -> None:
    with state.writes:
        document = state.library.store.get_document(ref, access)
        state.library.remove(document.id, access)


@router.put("/documents/{doc}/visibility", response_model=DocumentJSON, responses=ERRORS)
async def set_visibility(
    doc: DocPath, body: VisibilityIn, state: StateDep, access: AccessDep
) -> DocumentJSON:
    """Make a document private, shared with its orgs, or public: its owner or an admin of
    one of its orgs may. The store and every search route change in one step."""
    return await run_in_threadpool(_share, state, doc, body.visibility, access)


def _share(state: ServerState, ref: str, visibility: Visibility, access: Access) -> DocumentJSON:
    with state.writes:
        document = state.library.store.get_document(ref, access)
        return document_json(state.library.set_visibility(document.id, visibility, access))


@router.get("/documents/{doc}/original", response_class=FileResponse, responses=ERRORS)
async def get_original(doc: DocPath, state: StateDep, access: AccessDep) -> FileResponse:
    """The stored original file, always as a download (never rendered in our origin)."""
    document = await run_in_threadpool(state.library.store.get_document, doc, access)
    path = await run_in_threadpool(state.library.store.original_path, document)
    return FileResponse(
        path,
        media_type=MEDIA_TYPES.get(document.format, "application/octet-stream"),
        headers={"Content-Disposition": content_disposition(document.title, document.format)},
    )


def content_disposition(title: str, fmt: str) -> str:
    """An attachment header whose name is made from the title, never from a path."""
    stem = "".join(ch if ch.isalnum() or ch in " ._-" else "_" for ch in title).strip()[:80]
    name = (stem or "document") + SUFFIXES.get(fmt, "")
    ascii_name = name.encode("ascii", "replace").decode().replace("?", "_")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"
