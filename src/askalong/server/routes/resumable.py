"""Resumable uploads over tus 1.0 (``server/tus.py``) at ``/api/uploads``.

``POST`` creates an upload (``Upload-Length``, optional ``Upload-Metadata`` with
``filename`` and ``sha256``), ``HEAD`` tells its offset, ``PATCH`` appends a piece at that
offset (``Upload-Checksum`` optional), ``DELETE`` ends it, ``GET`` (ours, JSON) tells its
state and, once added, its document. The request that delivers the last byte claims the
upload and the document is added after its answer; a piece that arrives only in part (the
connection dropped) is kept up to where it stopped, unless it came with a checksum.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request, Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from askalong.errors import AskAlongError, Busy, DiskFull, InputError, TooLarge, TooMany
from askalong.files.disk import is_disk_full
from askalong.ingest.archive import is_archive_name
from askalong.ingest.inputs import Upload
from askalong.parse.progress import Progress, Stage
from askalong.resumable.area import check_upload_id, discard
from askalong.resumable.checksum import Checksum
from askalong.resumable.receiver import ResumableUploads
from askalong.server import tus
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.errors import error_response, status_of, too_many_response
from askalong.server.ingesting import add_archive, await_job, queue_document
from askalong.server.schemas import ErrorOut, ResumableUploadOut
from askalong.server.uploads import display_name
from askalong.store.accounts import OrgStore
from askalong.types import Access
from askalong.values.jobs import Job
from askalong.values.uploads import ResumableUpload

router = APIRouter(prefix="/api", tags=["uploads"])

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (400, 404, 409, 410, 412, 413, 415, 429, 460)
}


@router.options("/uploads", status_code=204)
async def upload_capabilities(state: StateDep) -> Response:
    """What this server speaks of tus: version, extensions, size limit, checksums."""
    limit = state.uploads.limits.max_bytes
    return Response(status_code=204, headers=tus.capabilities(limit))


@router.post("/uploads", status_code=201, responses=ERRORS)
async def create_upload(request: Request, state: StateDep, access: AccessDep) -> Response:
    """Create an upload of ``Upload-Length`` bytes; its address is in ``Location``."""
    try:
        _require_version(request)
        length = tus.whole_number(request, "Upload-Length")
        header = request.headers.get("upload-metadata", "")
        metadata = tus.parse_metadata(header)
        name = display_name(metadata.get("filename") or metadata.get("name"))
        sha256 = tus.declared_sha256(metadata)
        uploads = state.uploads
        await run_in_threadpool(uploads.sweep)
        upload = await run_in_threadpool(uploads.create, length, name, header, sha256, access)
    except AskAlongError as exc:
        return _refusal(exc)
    headers = {**tus.state_headers(upload), "Location": f"/api/uploads/{upload.id}"}
    return Response(status_code=201, headers=headers)


@router.head("/uploads/{upload_id}", responses=ERRORS)
async def upload_offset(
    upload_id: str, request: Request, state: StateDep, access: AccessDep
) -> Response:
    """How many bytes of the upload are stored (``Upload-Offset``)."""
    try:
        _require_version(request)
        upload = await run_in_threadpool(_status, state.uploads, upload_id, access)
    except AskAlongError as exc:
        return _refusal(exc, body=False)
    headers = tus.state_headers(upload)
    if upload.metadata:
        headers["Upload-Metadata"] = upload.metadata
    return Response(status_code=200, headers=headers)


@router.get("/uploads/{upload_id}", response_model=ResumableUploadOut, responses=ERRORS)
async def upload_state(upload_id: str, state: StateDep, access: AccessDep) -> ResumableUploadOut:
    """The upload's state and, once added, its document's id (or why it failed). While the
    document's job runs, the upload is ``complete`` with the job's progress; a failed job
    makes it ``failed`` with the job's reason."""
    upload = await run_in_threadpool(_status, state.uploads, upload_id, access)
    if upload.state == "added" and upload.document_id is not None:
        job = await run_in_threadpool(state.library.store.job_of, upload.document_id)
        return ResumableUploadOut.of(*_as_job_says(upload, job))
    return ResumableUploadOut.of(upload, state.uploads.progress_of(upload.id))


_JOB_STAGES: dict[str, Stage] = {"parsing": "parse", "ocr": "ocr", "embedding": "vectors"}


def _as_job_says(
    upload: ResumableUpload, job: Job | None
) -> tuple[ResumableUpload, Progress | None]:
    """An added upload as its document's job has it: still being read, or failed."""
    if job is None or job.state == "ready":
        return upload, None
    if job.state == "failed":
        return replace(upload, state="failed", error=job.error), None
    stage = _JOB_STAGES.get(job.state)
    progress = Progress(stage, job.done, job.total) if stage else None
    return replace(upload, state="complete"), progress


@router.patch("/uploads/{upload_id}", status_code=204, responses=ERRORS)
async def append_piece(
    upload_id: str,
    request: Request,
    state: StateDep,
    access: AccessDep,
    tasks: BackgroundTasks,
) -> Response:
    """Append the body at ``Upload-Offset``; the new offset in the answer."""
    try:
        _require_version(request)
        if request.headers.get("content-type", "").split(";")[0].strip() != tus.OFFSET_MEDIA_TYPE:
            return _refusal(
                InputError(f"send pieces as {tus.OFFSET_MEDIA_TYPE}", source="Content-Type"),
                status=415,
            )
        offset = tus.whole_number(request, "Upload-Offset")
        header = request.headers.get("upload-checksum")
        checksum = Checksum.parse(header) if header else None
        uploads = state.uploads
        await run_in_threadpool(_status, uploads, upload_id, access)  # before reading a byte
        piece, size = await _receive_piece(request, uploads, checksum, upload_id)
        upload, completed = await run_in_threadpool(
            uploads.append, upload_id, offset, piece, size, access
        )
    except AskAlongError as exc:
        return _refusal(exc)
    if completed:
        tasks.add_task(_add_document, state, upload, access)
    return Response(status_code=204, headers=tus.state_headers(upload))


@router.delete("/uploads/{upload_id}", status_code=204, responses=ERRORS)
async def terminate_upload(
    upload_id: str, request: Request, state: StateDep, access: AccessDep
) -> Response:
    """End the upload; its stored bytes are removed."""
    try:
        _require_version(request)
        await run_in_threadpool(state.uploads.terminate, upload_id, access)
    except AskAlongError as exc:
        return _refusal(exc)
    return Response(status_code=204, headers={"Tus-Resumable": tus.TUS_VERSION})


async def _receive_piece(
    request: Request, uploads: ResumableUploads, checksum: Checksum | None, upload_id: str
) -> tuple[Path, int]:
    """The body, written to a fresh piece file as it arrives; its path and size. A body
    cut off by the client is kept as far as it came, unless a checksum must hold."""
    fd, piece = uploads.area.new_piece()
    hasher = checksum.hasher() if checksum else None
    size, limit = 0, uploads.limits.max_piece_bytes
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                async for data in request.stream():
                    size += len(data)
                    if size > limit:
                        raise TooLarge.of(size, limit, source=upload_id)
                    await run_in_threadpool(out.write, data)
                    if hasher:
                        hasher.update(data)
            except ClientDisconnect:
                if checksum:
                    raise InputError("the piece was cut off", source=upload_id) from None
        if checksum and hasher:
            checksum.check(hasher, upload_id)
    except BaseException as exc:
        discard(piece)
        if is_disk_full(exc):
            raise DiskFull.of(str(piece)) from exc
        raise
    return piece, size


def _status(uploads: ResumableUploads, upload_id: str, access: Access) -> ResumableUpload:
    return uploads.status(check_upload_id(upload_id), access)


async def _add_document(state: ServerState, upload: ResumableUpload, owner: Access) -> None:
    """After the last piece's answer: the file is queued as a document with its job (one
    transaction; an archive is unpacked and added, a long step, in a slot of its own), and
    the server's worker, woken, reads it; ``GET`` shows the job's progress until it is
    done. Nothing here holds a thread while it waits."""
    add = functools.partial(_add, state)
    added = await state.long_work.run_queued(state.uploads.add_document, upload, add, owner)
    if added.document_id is not None:
        await await_job(state, added.document_id)


async def resume_uploads(state: ServerState) -> list[ResumableUpload]:
    """At startup: expired uploads swept, complete ones a stop left unadded queued, each
    for its owner (as the store's accounts say; the local owner without them), and read
    by the worker before the first request."""
    await run_in_threadpool(state.uploads.sweep)
    owners = _owner_access(state.library.store)
    add = functools.partial(_add, state)
    resumed = await run_in_threadpool(state.uploads.resume, add, owners)
    for upload in resumed:
        if upload.document_id is not None:
            await await_job(state, upload.document_id)  # read before the server takes requests
    return resumed


def _owner_access(store: OrgStore) -> Callable[[str], Access]:
    local = Access.local()
    return lambda owner: local if owner == local.user else store.access_of(owner)


def _add(state: ServerState, data: bytes, name: str, access: Access) -> str:
    """The finished upload queued as a document; a repository's archive unpacked and its
    files added at once, as the multipart route adds one (the upload names its first)."""
    if is_archive_name(name):
        added = add_archive(state, Upload(data, source=name, name=name), access)
        return next(o.document.id for o in added.outcomes if o.document is not None)
    outcome = queue_document(state, Upload(data, source=name, name=name), access)
    if outcome.document is None:
        raise InputError(outcome.error or "the document was not added", source=name)
    return outcome.document.id


def _require_version(request: Request) -> None:
    if not tus.speaks_our_version(request):
        raise _VersionMismatch(
            f"send Tus-Resumable: {tus.TUS_VERSION} (the version this server speaks)",
            source="Tus-Resumable",
        )


class _VersionMismatch(InputError):
    """tus answers a missing or other protocol version with 412."""


def _refusal(exc: AskAlongError, *, status: int | None = None, body: bool = True) -> Response:
    status = status or (412 if isinstance(exc, _VersionMismatch) else status_of(exc))
    headers = {"Tus-Resumable": tus.TUS_VERSION, "Tus-Version": tus.TUS_VERSION}
    if isinstance(exc, TooMany | Busy):
        headers["Retry-After"] = str(exc.retry_after)
    if not body:  # a HEAD answer has no body
        return Response(status_code=status, headers=headers)
    if isinstance(exc, TooMany | Busy):
        response = too_many_response(exc)
    else:
        response = error_response(status, type(exc).__name__, exc.message, exc.source)
    response.headers.update(headers)
    return response
