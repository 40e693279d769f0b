"""PDF page images for the reader: rendered by pypdfium2 at a few fixed widths, cached on
disk under ``ASKALONG_HOME/cache/pages/`` by document id (the id is the content hash, so a
cached image never goes stale).

A page's shape is the file's to choose: a 1 x 14400 pt page is 240 px wide and 3.5 million
px tall. Every image is sized before it is rendered and refused over ``MAX_PIXELS``. What
is inside a page is the file's to choose too (a 5 KB content stream can take minutes to
draw), so pdfium draws in a guarded child process (``parse/guard.py``), one long-lived
child for every page: an image that takes longer than ``ASKALONG_RENDER_TIMEOUT`` or needs
more than ``ASKALONG_RENDER_MEMORY_MB`` is refused as too large, the child replaced."""

from __future__ import annotations

import bisect
import io
import math
import threading
from pathlib import Path

import pypdfium2 as pdfium

from askalong.errors import AskAlongError, CorruptDocument, NotFound, TooLarge, Unavailable
from askalong.files.atomic import write_atomically
from askalong.parse.guard import ChildFailure, GuardedChild
from askalong.parse.pdf.geometry import page_geometry
from askalong.types import Document

# Requested widths snap up to one of these, so a handful of files serve every screen.
WIDTHS: tuple[int, ...] = (240, 320, 480, 640, 800, 960, 1200, 1440, 1800, 2400)
MIN_WIDTH, MAX_WIDTH = WIDTHS[0], WIDTHS[-1]
# 40 megapixels: a bitmap of ~120 MB, a second or two to render. An A4 page at the widest
# stock width is 8 MP; only pages over ~7 times as tall as wide need a narrower width.
MAX_PIXELS = 40_000_000
PNG_COMPRESS_LEVEL = 3  # fast to write; page images are mostly flat white and compress well


def snap_width(requested: int) -> int:
    """The smallest stock width at least ``requested`` (clamped to the stock range)."""
    clamped = min(max(requested, MIN_WIDTH), MAX_WIDTH)
    return WIDTHS[bisect.bisect_left(WIDTHS, clamped)]


class PageRenderer:
    """Renders page images in a guarded child, caches them; one page is drawn at a time
    (pdfium is not thread-safe, and the child serves one call at a time)."""

    def __init__(self, cache_dir: Path, *, timeout: float = 15.0, memory_mb: int = 1024) -> None:
        self.cache_dir = cache_dir
        self.timeout = timeout
        self.memory_mb = memory_mb
        self._child = GuardedChild(draw_png, memory_mb)
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the child now, so the first page does not wait for it to import pdfium."""
        self._child.start()

    def close(self) -> None:
        self._child.close()

    @property
    def child_pid(self) -> int | None:
        """The render child's process id, while one runs."""
        return self._child.pid

    def image(self, document: Document, original: Path, page: int, width: int) -> Path:
        """The PNG of ``page`` (1-based) at the stock width nearest above ``width``."""
        _check_page(document, page)
        target = self._cache_path(document, page, snap_width(width))
        if not target.is_file():
            with self._lock:
                if not target.is_file():
                    image = self._draw(original, page, snap_width(width), document.id)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_atomically(target, image, prefix=".tmp-")
        return target

    def _cache_path(self, document: Document, page: int, width: int) -> Path:
        return self.cache_dir / document.id / f"{page}-{width}.png"

    def _draw(self, original: Path, page: int, width: int, source: str) -> bytes:
        try:
            image: bytes = self._child.call((str(original), page, width, source), self.timeout)
        except ChildFailure as failure:
            self._child.start()  # the next page need not wait for a fresh child's imports
            raise self._failed(failure, page, source) from None
        return image

    def _failed(self, failure: ChildFailure, page: int, source: str) -> AskAlongError:
        if failure.kind == "timeout":
            limit = f"{self.timeout:g} s per image (ASKALONG_RENDER_TIMEOUT)"
            return TooLarge(f"page {page} takes too long to draw: over {limit}", source=source)
        if failure.kind == "memory":
            limit = f"{self.memory_mb} MB (ASKALONG_RENDER_MEMORY_MB)"
            return TooLarge(f"page {page} needs more memory to draw than {limit}", source=source)
        if failure.kind == "killed":
            problem = f"the page renderer was stopped while drawing page {page}; try again"
            return Unavailable(problem, source=source)
        if failure.kind == "bug":
            return CorruptDocument(f"cannot render page {page}: {failure.detail}", source=source)
        problem = f"the page renderer crashed on page {page} ({failure.detail})"
        return CorruptDocument(problem, source=source)


def _check_page(document: Document, page: int) -> None:
    if document.format != "pdf":
        raise NotFound(f"a {document.format} document has no page images", source=document.id)
    if not 1 <= page <= document.page_count:
        raise NotFound(
            f"page {page} is not in this document (1-{document.page_count})", source=document.id
        )


def draw_png(original: str, page: int, width: int, source: str) -> bytes:
    """Page ``page`` of the PDF at ``original`` as PNG bytes, ``width`` pixels wide: the
    render child's work, refused over the pixel budget before any pixel is drawn."""
    try:
        pdf = pdfium.PdfDocument(original)
    except pdfium.PdfiumError as exc:
        raise CorruptDocument(f"cannot open the PDF: {exc}", source=source) from exc
    try:
        sheet = pdf[page - 1]
        geometry = page_geometry(sheet)  # the size the parser measured the boxes on
        _check_budget(geometry.size, page, width, source=source)  # before any pixel
        bitmap = sheet.render(scale=geometry.scale(width), may_draw_forms=True)
        buffer = io.BytesIO()
        bitmap.to_pil().save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
        return buffer.getvalue()
    except pdfium.PdfiumError as exc:
        raise CorruptDocument(f"cannot render page {page}: {exc}", source=source) from exc
    finally:
        pdf.close()


def _image_height(size: tuple[float, float], width: int) -> int:
    """Pixels high of a page of ``size`` points drawn ``width`` pixels wide (rounded up,
    as pdfium does: a sliver of a page is still one pixel high)."""
    page_width, page_height = size
    return max(math.ceil(page_height * width / page_width), 1)


def _check_budget(size: tuple[float, float], page: int, width: int, *, source: str) -> None:
    """Refuse to draw page ``page`` of ``size`` points ``width`` pixels wide over the budget."""
    if not all(math.isfinite(side) and side > 0 for side in size):
        problem = f"page {page} has no usable size ({size[0]:g} x {size[1]:g} pt)"
        raise CorruptDocument(problem, source=source)
    height = _image_height(size, width)
    if width * height > MAX_PIXELS:
        raise TooLarge(_over_budget(size, page, width, height), source=source)


def _over_budget(size: tuple[float, float], page: int, width: int, height: int) -> str:
    fitting = [w for w in WIDTHS if w * _image_height(size, w) <= MAX_PIXELS]
    advice = f"at most {fitting[-1]} px wide fits" if fitting else "no width fits"
    return (
        f"page {page} is {size[0]:g} x {size[1]:g} pt: {width} px wide, its image would be "
        f"{width:,} x {height:,} px, over the {MAX_PIXELS // 1_000_000}-megapixel limit "
        f"({advice})"
    )
