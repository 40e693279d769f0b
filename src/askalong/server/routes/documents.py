"""Documents: list, upload, structure, delete, and the stored original."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from askalong.errors import InputError
from askalong.ingest.archive import is_archive_name
from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import AddOutcome
from askalong.jobs.outbox import retry_document as retry_job
from askalong.parse.progress import Sink
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.ingesting import ArchiveAdded, add_archive, add_upload, job_queued
from askalong.server.schemas import (
    ArchiveFileOut,
    DocPath,
    DocumentList,
    ErrorOut,
    StructureOut,
    UploadOut,
    VisibilityIn,
)
from askalong.server.upload_events import upload_stream
from askalong.server.uploads import receive_upload
from askalong.types import Access
from askalong.wire import DocumentJSON, collection_json, document_json

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
    "code": "text/plain",  # a source file's title is its file name, ending included
}
SUFFIXES = {"pdf": ".pdf", "html": ".html", "markdown": ".md", "text": ".txt", "docx": ".docx"}


@router.get("/documents", response_model=DocumentList)
async def list_documents(state: StateDep, access: AccessDep) -> DocumentList:
    """The documents the caller may see, newest first, each with its ingestion ``job``."""
    return await run_in_threadpool(_listing, state, access)


def _listing(state: ServerState, access: Access) -> DocumentList:
    store = state.library.store
    docs = store.list_documents(access)
    jobs = {job.document_id: job for job in store.jobs([d.id for d in docs])}
    return DocumentList(documents=[document_json(d, jobs.get(d.id)) for d in docs])


@router.post(
    "/documents",
    response_model=UploadOut,
    status_code=201,
    openapi_extra=UPLOAD_BODY,
    responses={
        **ERRORS,
        413: {"model": ErrorOut},
        201: {
            "description": "The upload's JSON, or with ``Accept: text/event-stream`` its "
            "progress as events (``server/upload_events.py``): ``progress`` ``{stage, done,"
            " total}`` (stages ``parse``, ``ocr``), then ``done`` (this JSON) or ``error``.",
            "content": {
                "application/json": {},
                "text/event-stream": {"schema": {"type": "string"}},
            },
        },
    },
)
async def upload_document(
    request: Request, state: StateDep, access: AccessDep
) -> UploadOut | Response:
    """Add a document sent as multipart field ``file`` (PDF, HTML, Markdown, text, DOCX,
    source code), or a repository's ZIP or tar (``.zip``, ``.tar``, ``.tar.gz``, ``.tgz``,
    ``.tar.bz2``, ``.tar.xz``): unpacked safely (no path out of it, no link or device
    member, file-count and size limits; the error names the member), its files added as
    ``NAME/path`` in one collection ``NAME``, answered as JSON (never streamed).

    The same content sent twice is the same document (status ``exists``). It is
    keyword-searchable when this returns; its vectors are computed afterwards by the
    server's background embedder. Parsing is a long step: when the slots for long steps
    are all taken the upload is refused at once with 503 and ``Retry-After``.
    """
    received = await receive_upload(request, state.library.settings.max_file_bytes)
    upload = Upload(received.data, source=received.name, name=received.name)
    if is_archive_name(received.name):
        return archive_out(await state.long_work.run(add_archive, state, upload, access))
    if "text/event-stream" in request.headers.get("accept", ""):
        work = functools.partial(_streamed, state, upload, access)
        stream = upload_stream(work, state.long_work)
        return StreamingResponse(stream, status_code=201, media_type="text/event-stream")
    outcome = await state.long_work.run(add_upload, state, upload, access)
    return _upload_out(outcome, received.name)


def _streamed(state: ServerState, upload: Upload, access: Access, progress: Sink) -> dict[str, Any]:
    """The streamed upload's work: add, reporting the parse's progress."""
    return _upload_out(add_upload(state, upload, access, progress), upload.source).model_dump()


def _upload_out(outcome: AddOutcome, name: str) -> UploadOut:
    if outcome.document is None:  # add_upload raises on failure; this is only a guard
        raise InputError(outcome.error or "the document was not added", source=name)
    return UploadOut(
        status=outcome.status,
        document=document_json(outcome.document),
        blocks=outcome.blocks,
        chunks=outcome.chunks,
    )


def archive_out(added: ArchiveAdded) -> UploadOut:
    """An archive's files as one upload's answer (see ``UploadOut``)."""
    kept = [o for o in added.outcomes if o.document is not None]
    first = kept[0]  # add_archive refuses an archive with no file added
    assert first.document is not None
    return UploadOut(
        status="added" if any(o.status == "added" for o in kept) else "exists",
        document=document_json(first.document),
        blocks=sum(o.blocks for o in kept),
        chunks=sum(o.chunks for o in kept),
        files=[
            ArchiveFileOut(
                source=o.source,
                status=o.status,
                document_id=o.document.id if o.document else None,
                error=o.error,
            )
            for o in added.outcomes
        ],
        collection=collection_json(added.collection) if added.collection else None,
        skipped=added.skipped,
    )


@router.get("/documents/{doc}", response_model=StructureOut, responses=ERRORS)
async def get_document(doc: DocPath, state: StateDep, access: AccessDep) -> StructureOut:
    """A document (id or unique id prefix) with its pages, blocks and headings outline."""
    return await run_in_threadpool(_structure, state, doc, access)


def _structure(state: ServerState, ref: str, access: Access) -> StructureOut:
    store = state.library.store
    document = store.get_document(ref, access)
    return StructureOut.of(document, store.blocks(document.id), store.job_of(document.id))


@router.post("/documents/{doc}/retry", response_model=DocumentJSON, responses=ERRORS)
async def retry_document(doc: DocPath, state: StateDep, access: AccessDep) -> DocumentJSON:
    """Queue the document's ingestion again (its owner may): a failed job gets fresh
    attempts; the answer carries its ``job``, pending."""
    return await run_in_threadpool(_retry, state, doc, access)


def _retry(state: ServerState, ref: str, access: Access) -> DocumentJSON:
    document, job = retry_job(state.library.store, ref, access)
    job_queued(state)
    return document_json(document, job)


@router.delete("/documents/{doc}", status_code=204, responses=ERRORS)
async def delete_document(doc: DocPath, state: StateDep, access: AccessDep) -> None:
    """Remove a document with its blocks, chunks, index entries and stored original; 503
    with ``Retry-After`` when another change holds the write lock past half a second."""
    document = await run_in_threadpool(state.library.store.get_document, doc, access)
    async with state.writes.held():  # the lookup above needs no lock: a 404 never waits
        await run_in_threadpool(state.library.remove, document.id, access)


@router.put("/documents/{doc}/visibility", response_model=DocumentJSON, responses=ERRORS)
async def set_visibility(
    doc: DocPath, body: VisibilityIn, state: StateDep, access: AccessDep
) -> DocumentJSON:
    """Make a document private, shared with its orgs, or public: its owner or an admin of
    one of its orgs may. The store and every search route change in one step (503 with
    ``Retry-After`` when another change holds the write lock past half a second)."""
    library, visibility = state.library, body.visibility
    document = await run_in_threadpool(library.store.get_document, doc, access)
    async with state.writes.held():
        shared = await run_in_threadpool(library.set_visibility, document.id, visibility, access)
    return document_json(shared)


@router.get("/documents/{doc}/original", response_class=FileResponse, responses=ERRORS)
async def get_original(
    doc: DocPath, state: StateDep, access: AccessDep, inline: bool = False
) -> FileResponse:
    """The stored original file, as a download. A PDF asked for ``inline`` is shown by the
    browser's PDF viewer instead (the reader links it at ``#page=N``); any other format stays
    a download, since HTML shown inline would run in our origin."""
    document = await run_in_threadpool(state.library.store.get_document, doc, access)
    path = await run_in_threadpool(state.library.store.original_path, document)
    shown = inline and document.format == "pdf"
    disposition = content_disposition(document.title, document.format, inline=shown)
    return FileResponse(
        path,
        media_type=MEDIA_TYPES.get(document.format, "application/octet-stream"),
        headers={"Content-Disposition": disposition},
    )


def content_disposition(title: str, fmt: str, *, inline: bool = False) -> str:
    """An attachment (or inline) header whose name is made from the title, never a path."""
    # no separators, and no leading dot (a hidden file) or trailing one (dropped on Windows)
    stem = "".join(ch if ch.isalnum() or ch in " ._-" else "_" for ch in title).strip(" .")[:80]
    name = (stem or "document") + SUFFIXES.get(fmt, "")
    ascii_name = name.encode("ascii", "replace").decode().replace("?", "_")
    kind = "inline" if inline else "attachment"
    return f"{kind}; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"
