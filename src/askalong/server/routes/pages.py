"""PDF page images at a requested width (snapped to a few stock widths, cached on disk);
an image over the pixel budget is refused with 413 before it is drawn, one over the render
child's time or memory limit with 413 when the limit is hit, and a render whose child was
killed mid-way with 503 (the next request gets a fresh child).

A scanned page the OCR time budget left unread is read on request (``.../read``): OCR in
the page-reading child (a long step: in a slot of ``busy.LongWork``, 503 when none is
free), its blocks stored once, keyword-searchable on return, its vectors computed by the
server's background embedder. ``.../reading`` does the same in the background (the
reader's *Read it now*): ``POST`` starts it, ``GET`` says how it goes (``page_reads``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from starlette.concurrency import run_in_threadpool

from askalong.errors import NotFound
from askalong.ingest.pages import PageRead, check_page
from askalong.parse.pdf.render import MAX_PIXELS, MAX_WIDTH
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.page_reads import PageReadTask
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import DocPath, ErrorOut, PagePath, PageReadingOut, PageReadOut
from askalong.types import Access
from askalong.wire import block_json, document_json

router = APIRouter(prefix="/api", tags=["pages"])

# The URL names the content (document id = content hash), so the image never changes.
IMMUTABLE = "public, max-age=31536000, immutable"
WIDTH_HELP = (
    f"pixels; snapped up to a stock width, at most {MAX_WIDTH}; the image is at most "
    f"{MAX_PIXELS:,} pixels in all"
)


@router.get(
    "/documents/{doc}/pages/{page}.png",
    response_class=FileResponse,
    responses={
        **ERRORS,
        413: {"model": ErrorOut},
        503: {"model": ErrorOut},
        200: {"content": {"image/png": {}}},
    },
)
async def page_image(
    doc: DocPath,
    page: PagePath,
    state: StateDep,
    access: AccessDep,
    width: Annotated[int, Query(ge=1, le=10_000, description=WIDTH_HELP)] = 1200,
) -> FileResponse:
    """Page ``page`` (1-based) of a PDF as PNG, rendered at least ``width`` pixels wide.

    An image over the pixel budget (a page many times taller than wide) is refused
    with 413, naming the widest width that fits; a page that takes longer to draw than
    the per-image time limit, or more memory than the renderer's limit, with 413 naming
    the page and the limit; a render cut short by the renderer's death with 503.
    """
    path = await run_in_threadpool(_image, state, doc, access, page, width)
    return FileResponse(path, media_type="image/png", headers={"Cache-Control": IMMUTABLE})


def _image(state: ServerState, ref: str, access: Access, page: int, width: int) -> Path:
    document = state.library.store.get_document(ref, access)
    original = state.library.store.original_path(document)
    return state.pages.image(document, original, page, width)


@router.post(
    "/documents/{doc}/pages/{page}/read",
    response_model=PageReadOut,
    responses={**ERRORS, 503: {"model": ErrorOut}},
)
async def read_page(
    doc: DocPath, page: PagePath, state: StateDep, access: AccessDep
) -> PageReadOut:
    """Read page ``page`` (1-based) by OCR now: a scanned page left unread when the
    document was added (its ``unread_pages``; the page's ``unread`` in the structure).

    Its blocks are stored and keyword-searchable when this returns, its vectors follow.
    A page read already is not read again (``added`` false, the same blocks). 404 for a
    page that is not in the document, 503 when text recognition is not installed or
    when the slots for long steps are all taken (with ``Retry-After``).
    """
    read = await state.long_work.run(_read, state, doc, access, page)
    if read.added:
        state.embedding.wake(read.document)  # the other pages' vectors are reused
    return _read_out(read)


def _read(state: ServerState, ref: str, access: Access, page: int) -> PageRead:
    document = state.library.store.get_document(ref, access)
    return state.library.pages.read(document, page, writes=state.writes)


@router.post(
    "/documents/{doc}/pages/{page}/reading",
    response_model=PageReadingOut,
    status_code=202,
    responses={**ERRORS, 503: {"model": ErrorOut}},
)
async def start_reading_page(
    doc: DocPath, page: PagePath, state: StateDep, access: AccessDep
) -> PageReadingOut:
    """Start reading page ``page`` by OCR in the background (the reader's *Read it now*);
    ask ``GET`` on the same address how it goes. Starting it again while it runs returns
    the read under way. 404 for a page not in the document, 503 when the slots for long
    steps are all taken (with ``Retry-After``)."""
    document = await run_in_threadpool(state.library.store.get_document, doc, access)
    check_page(document, page)

    def work() -> PageRead:
        read = _read(state, document.id, access, page)
        if read.added:
            state.embedding.wake(read.document)
        return read

    return _reading(state.page_reads.start(document.id, page, work, state.long_work))


@router.get(
    "/documents/{doc}/pages/{page}/reading",
    response_model=PageReadingOut,
    responses=ERRORS,
)
async def page_reading(
    doc: DocPath, page: PagePath, state: StateDep, access: AccessDep
) -> PageReadingOut:
    """How the background read of page ``page`` goes: reading (seconds so far), read (the
    page's blocks) or failed (why); 404 when no read of it was started."""
    document = await run_in_threadpool(state.library.store.get_document, doc, access)
    task = state.page_reads.get(document.id, page)
    if task is None:
        raise NotFound(f"page {page} is not being read", source=document.id)
    return _reading(task)


def _reading(task: PageReadTask) -> PageReadingOut:
    read = task.result if task.state == "read" else None
    return PageReadingOut(
        page=task.page,
        state=task.state,
        seconds=round(task.seconds(), 1),
        message=task.message,
        read=None if read is None else _read_out(read),
    )


def _read_out(read: PageRead) -> PageReadOut:
    return PageReadOut(
        document=document_json(read.document),
        page=read.page,
        blocks=[block_json(b) for b in read.blocks],
        added=read.added,
    )
