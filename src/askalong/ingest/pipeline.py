"""Adding documents: bytes -> detect + parse (guarded) -> chunk -> one store transaction.

One bad input never stops the others: each input yields an ``AddOutcome`` that is either
added, already present, or failed with a one-line reason. The caller's ``Access`` says who
adds, and so who owns what is added. Only the last step writes: a caller that serialises
writes (the server) passes its lock, held for the transaction and the keyword index, never
while a file is being parsed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Literal
from urllib.parse import urlsplit

from askalong.chunk.code import chunk_code
from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.errors import AskAlongError, NotFound
from askalong.index.routes import StoreIndexes
from askalong.ingest.describe import describe_chunks, with_warnings
from askalong.ingest.fetch import fetch_url, is_url
from askalong.ingest.inputs import Upload, path_text, read_file
from askalong.ingest.writer import LibraryWriter
from askalong.parse.code.file_names import is_code_name
from askalong.parse.guard import ParserGuard
from askalong.parse.progress import Sink
from askalong.store.base import DocumentStore
from askalong.text.scripts import detect_language
from askalong.types import (
    FURNITURE_KINDS,
    Access,
    Block,
    Chunk,
    Document,
    DocumentFormat,
    ParsedDocument,
    StoredDocument,
    Visibility,
)

ID_LENGTH = 16  # hex characters of the content hash that make a document id

Status = Literal["added", "exists", "failed", "queued"]  # queued: ``jobs/outbox``


@dataclass(frozen=True)
class AddOutcome:
    source: str
    status: Status
    document: Document | None = None
    blocks: int = 0
    chunks: int = 0
    error: str | None = None


def document_id(content_hash: str) -> str:
    return content_hash[:ID_LENGTH]


def path_copy_id(content_hash: str, source: str) -> str:
    """The id of a source file whose bytes another path of a repository holds too (two
    identical ``__init__.py``): each path is a file of its own, found by its path."""
    return document_id(hashlib.sha256(f"{content_hash}\npath\n{source}".encode()).hexdigest())


def own_copy_id(content_hash: str, owner: str | None) -> str:
    """The id of ``owner``'s copy of bytes that someone else holds where ``owner`` may not
    see them (``Ingestor.placed_id``)."""
    return document_id(hashlib.sha256(f"{content_hash}\n{owner or ''}".encode()).hexdigest())


def with_parsed(document: Document, parsed: ParsedDocument) -> Document:
    """``document`` with what parsing found: its title (``document``'s when the parse found
    none), format, language, pages and their geometry, OCR and notices."""
    return replace(
        document,
        title=parsed.title.strip() or document.title,
        format=parsed.format,
        language=document_language(parsed.blocks),
        page_count=parsed.page_count,
        page_sizes=parsed.page_sizes,
        page_turns=parsed.page_turns,
        ocr_pages=parsed.ocr_pages,
        unread_pages=parsed.unread_pages,
        notices=parsed.notices,
    )


# Blocks whose script says nothing of the document's language: code listings, formulas,
# tables, furniture and navigation (a Chinese guide's English commands made it "mixed").
_NOT_PROSE = FURNITURE_KINDS | {"code", "formula", "table"}
_LANGUAGE_BLOCKS = 200


def document_language(blocks: Sequence[Block]) -> str:
    """The language of a document's prose: its first ``_LANGUAGE_BLOCKS`` prose blocks."""
    prose = [block.text for block in blocks if block.kind not in _NOT_PROSE]
    return detect_language(" ".join(prose[:_LANGUAGE_BLOCKS]))


def pending_document(
    upload: Upload,
    placed: tuple[str, str],
    fmt: DocumentFormat,
    access: Access,
    visibility: Visibility,
) -> Document:
    """What is known of a document before it is parsed: its id and content hash
    (``placed``: ``Ingestor.placed``), the bytes' format, owner, visibility and org tags;
    its title from the name (``with_parsed`` fills the rest)."""
    doc_id, content_hash = placed
    return Document(
        id=doc_id,
        content_hash=content_hash,
        title=Path(upload.name).stem or upload.source,
        source=upload.source,
        format=fmt,
        language=detect_language(""),
        page_count=0,
        size_bytes=len(upload.data),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        owner=access.user,
        visibility=visibility,
        org_tags=access.member_of,
    )


def settings_chunks(
    settings: Settings, doc_id: str, blocks: Sequence[Block], fmt: DocumentFormat = "text"
) -> tuple[Chunk, ...]:
    """The blocks cut into chunks at the sizes the settings name (source code by its
    structure, ``chunk/code.py``)."""
    if fmt == "code":
        return chunk_code(doc_id, blocks, target=settings.chunk_target, maximum=settings.chunk_max)
    return chunk_blocks(
        doc_id,
        blocks,
        target=settings.chunk_target,
        maximum=settings.chunk_max,
        overlap=settings.chunk_overlap,
    )


class Ingestor(LibraryWriter):
    """Adds documents to a store; owns the guarded parser process."""

    def __init__(
        self, settings: Settings, store: DocumentStore, indexes: StoreIndexes | None = None
    ) -> None:
        super().__init__(settings, store, indexes)
        self.guard = ParserGuard(
            settings.parse_timeout,
            memory_mb=settings.parse_memory_mb,
            options={"pdf": {"ocr_budget": settings.ocr_budget}},
        )

    def add(
        self,
        item: str,
        access: Access,
        *,
        visibility: Visibility | None = None,
        add: Callable[[Upload], AddOutcome] | None = None,
        source: str | None = None,
    ) -> AddOutcome:
        """Add one path or URL for ``access`` (see ``add_upload``; ``add`` instead, to queue
        it, say); never raises for bad input. ``source`` is what the document is called
        instead of the path (a file unpacked from an archive: ``repo.zip/src/main.go``)."""
        try:
            upload = self.read(item)
            if source is not None:
                upload = replace(upload, source=source)
            if add is not None:
                return add(upload)
            return self.add_upload(upload, access, visibility=visibility)
        except AskAlongError as exc:
            error = path_text(str(exc))  # a URL argument may hold undecodable bytes too
            return AddOutcome(source=path_text(source or item), status="failed", error=error)

    def read(self, item: str) -> Upload:
        if is_url(item):
            settings = self.settings
            fetched = fetch_url(
                item,
                max_bytes=settings.max_file_bytes,
                timeout=settings.fetch_timeout,
                total=settings.fetch_total_timeout,
            )
            name = PurePosixPath(urlsplit(fetched.url).path).name or urlsplit(fetched.url).netloc
            return Upload(data=fetched.data, source=fetched.url, name=name)
        return Upload(
            data=read_file(Path(item), self.settings.max_file_bytes),
            source=path_text(item),  # stored and shown: a name that is not UTF-8 escaped
            name=path_text(Path(item).name),
        )

    def add_upload(
        self,
        upload: Upload,
        access: Access,
        *,
        visibility: Visibility | None = None,
        writes: AbstractContextManager[Any] | None = None,
        progress: Sink | None = None,
    ) -> AddOutcome:
        """Add the upload, owned by ``access.user``, visible as ``visibility`` (default:
        ``ASKALONG_VISIBILITY``); ``writes`` is held only around the store and index writes;
        ``progress`` receives the parser's reports (``parse/progress.py``)."""
        content_hash = hashlib.sha256(upload.data).hexdigest()
        known = self.known(upload, content_hash, access)
        if known is not None:
            return known
        parsed = self.guard.read(upload.data, source=upload.source, progress=progress)
        parsed = _note_misnamed(parsed, upload.name)
        document = self._document(upload, parsed, content_hash, access, visibility)
        described = describe_chunks(
            self.settings, document.title, self._chunks(document.id, parsed)
        )
        document = with_warnings(document, described.warnings)
        stored = StoredDocument(document, parsed.blocks, described.chunks)
        with writes or nullcontext():
            return self.known(upload, content_hash, access) or self._write(upload, stored)

    def known(self, upload: Upload, content_hash: str, access: Access) -> AddOutcome | None:
        """``exists`` when these bytes are stored where ``access`` may see them (a source
        file: under this path), else None."""
        doc_id = self.placed_id(content_hash, access, upload.source)
        if not self.store.has_document(doc_id):
            return None
        document = self.store.get_document(doc_id, access)
        return AddOutcome(source=upload.source, status="exists", document=document)

    def placed(self, content_hash: str, access: Access, source: str = "") -> tuple[str, str]:
        """The id these bytes get for ``access`` (at ``source``), and their hash."""
        return self.placed_id(content_hash, access, source), content_hash

    def placed_id(self, content_hash: str, access: Access, source: str = "") -> str:
        """One id per content, except beside a copy ``access`` may not see: then a copy of
        their own (``own_copy_id``), so the upload neither fails nor tells them that someone
        holds exactly these bytes; and a source file stored under another path is a file
        of its own at ``source`` (``path_copy_id``), so each path opens and answers."""
        shared = document_id(content_hash)
        if not self.store.has_document(shared):
            return shared
        seen = self._seen(shared, access)
        if seen is None:
            return own_copy_id(content_hash, access.user)
        if source and is_code_name(source) and seen.source != source:
            return path_copy_id(content_hash, source)
        return shared

    def _seen(self, doc_id: str, access: Access) -> Document | None:
        try:
            return self.store.get_document(doc_id, access)
        except NotFound:
            return None

    def _chunks(self, doc_id: str, parsed: ParsedDocument) -> tuple[Chunk, ...]:
        return settings_chunks(self.settings, doc_id, parsed.blocks, parsed.format)

    def _write(self, upload: Upload, stored: StoredDocument) -> AddOutcome:
        self.store.add_document(stored, upload.data)
        if self.indexes is not None:  # searchable by keyword from here on
            self.indexes.add(stored.document, stored.chunks)
        counts = len(stored.blocks), len(stored.chunks)
        return AddOutcome(upload.source, "added", stored.document, *counts)

    def _document(
        self,
        upload: Upload,
        parsed: ParsedDocument,
        content_hash: str,
        access: Access,
        visibility: Visibility | None,
    ) -> Document:
        pending = pending_document(
            upload,
            self.placed(content_hash, access, upload.source),
            parsed.format,
            access,
            visibility or self.settings.visibility,
        )
        return with_parsed(pending, parsed)

    def close(self) -> None:
        self.guard.close()


_SUFFIX_FORMATS = {".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html"}


def _note_misnamed(parsed: ParsedDocument, name: str) -> ParsedDocument:
    """The content decides the format; say so when the name claimed another one."""
    claimed = _SUFFIX_FORMATS.get(Path(name).suffix.lower())
    if claimed is None or claimed == parsed.format:
        return parsed
    actual = parsed.format.upper()
    notice = f"the name says {claimed.upper()} but the content is {actual}; read as {actual}"
    return replace(parsed, notices=(*parsed.notices, notice))
