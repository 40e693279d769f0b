"""Reading a page now: a scanned page the OCR time budget left unread while its document
was added, read by OCR on request (in the guarded child, ``parse/pdf/page_read``) and
stored once: its blocks and chunks in reading order among the document's, the keyword
index updated at once; the caller embeds the new chunks (``StoreIndexes.embed``).

Reading a page that is already read reads nothing and returns its stored blocks, so a
second click, or two readers at once, store the page once.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import Any

from askalong.config import Settings
from askalong.errors import NotFound
from askalong.index.routes import StoreIndexes
from askalong.ingest.describe import describe_chunks
from askalong.ingest.pipeline import settings_chunks
from askalong.ingest.writer import LibraryWriter
from askalong.parse.pdf.page_read import PageReader
from askalong.store.base import DocumentStore
from askalong.types import Access, Block, Chunk, Document


@dataclass(frozen=True)
class PageRead:
    document: Document  # as it is now (the page no longer among its unread pages)
    page: int
    blocks: tuple[Block, ...]  # the page's blocks
    added: bool  # False: the page was read already, nothing changed


class PageReading(LibraryWriter):
    """Reads unread pages of the store's documents; owns the page-reading child."""

    def __init__(
        self, settings: Settings, store: DocumentStore, indexes: StoreIndexes | None = None
    ) -> None:
        super().__init__(settings, store, indexes)
        self.reader = PageReader(timeout=settings.parse_timeout, memory_mb=settings.parse_memory_mb)

    def read(
        self, document: Document, page: int, *, writes: AbstractContextManager[Any] | None = None
    ) -> PageRead:
        """Read ``page`` of ``document`` (resolved for the caller) if it is unread; ``writes``
        is held only around the store and index writes, never while OCR runs."""
        check_page(document, page)
        if page not in document.unread_pages:
            return self._stored(document, page, added=False)
        original = str(self.store.original_path(document))
        blocks = self._in_section(document, page, self.reader.read(original, page, document.id))
        chunks = _page_chunks(
            document.id, page, settings_chunks(self.settings, document.id, blocks)
        )
        # A model failure here falls back quietly: a page read has no report to carry it.
        chunks = describe_chunks(self.settings, document.title, chunks).chunks
        with writes or nullcontext():
            added = self.store.add_page(document.id, page, blocks, chunks)
            if added and self.indexes is not None:
                self.indexes.keyword.add(document, self.store.chunks(document.id))
        return self._stored(document, page, added=added)

    def _in_section(
        self, document: Document, page: int, blocks: tuple[Block, ...]
    ) -> tuple[Block, ...]:
        """The page's blocks outside any heading of their own sit in the section the page
        before ends in."""
        before = [b for b in self.store.blocks(document.id) if b.page is not None and b.page < page]
        path = before[-1].section_path if before else ()
        return tuple(b if b.section_path else replace(b, section_path=path) for b in blocks)

    def _stored(self, document: Document, page: int, *, added: bool) -> PageRead:
        fresh = self.store.get_document(document.id, Access.local())
        return PageRead(fresh, page, self.store.blocks(document.id, page=page), added)

    def close(self) -> None:
        self.reader.close()


def check_page(document: Document, page: int) -> None:
    """``NotFound`` unless ``page`` is a page of the PDF ``document``."""
    if document.format != "pdf" or not 1 <= page <= document.page_count:
        raise NotFound(f"no page {page} in this document", source=document.id)


def _page_chunks(doc_id: str, page: int, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
    """Chunk ids that name the page (chunk ids are global; the document's own are c0, c1...)."""
    return tuple(replace(c, id=f"{doc_id}:p{page}c{i}") for i, c in enumerate(chunks))
