"""PDF page images at a requested width (snapped to a few stock widths, cached on disk);
an image over the pixel budget is refused with 413 before it is drawn, one over the render
child's time or memory limit with 413 when the limit is hit, and a render whose child was
killed mid-way with 503 (the next request gets a fresh child)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from starlette.concurrency import run_in_threadpool

from askalong.parse.pdf.render import MAX_PIXELS, MAX_WIDTH
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import DocPath, ErrorOut, PagePath
from askalong.types import Access

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
