"""The JSON shapes of the API (they are also its OpenAPI schema).

Like the CLI's JSON, these are a contract: add fields, never rename or remove them. The
values (documents, blocks, hits, answers, threads) are ``askalong.wire``'s forms, the same
classes the CLI prints; this module adds the API's own envelopes and request bodies.
Boxes are compact arrays ``[x0, top, x1, bottom, start, end]`` (PDF points from the page's
top-left; ``start``/``end`` are character offsets of the line within the block text).
Every character offset in the API counts Unicode code points, as Python does.

Request text is bounded (``asking/limits``: ``maxLength`` in the schema, 413 past it) and
must be whole Unicode (a lone surrogate, which JSON's ``\\ud800`` can spell, is a 400).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Literal

from fastapi import Path
from pydantic import BaseModel, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from askalong.asking.limits import (
    MAX_ASKED_DOCUMENTS,
    MAX_ID_CHARS,
    MAX_QUESTION_CHARS,
    MAX_SELECTION_CHARS,
)
from askalong.parse.progress import Progress
from askalong.store.base import MIN_PREFIX
from askalong.types import Block, Document, Intent, Visibility
from askalong.values.jobs import Job
from askalong.values.uploads import ResumableUpload
from askalong.wire import (
    BlockJSON,
    CollectionJSON,
    DocumentJSON,
    ThreadSummaryJSON,
    block_json,
    document_json,
)

LONE_SURROGATE = "lone_surrogate"  # the validation error type errors.py answers with 400


def whole_unicode(value: object) -> object:
    """``value``, refused if it is a string that is not valid Unicode (not encodable as
    UTF-8, as the store and the indexes need). Runs before the length check, so the error
    says what is wrong rather than pydantic's generic "not a valid string"."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            message = "not valid Unicode: a lone surrogate at character {at}"
            raise PydanticCustomError(LONE_SURROGATE, message, {"at": exc.start}) from None
    return value


QuestionText = Annotated[str, Field(max_length=MAX_QUESTION_CHARS), BeforeValidator(whole_unicode)]
SelectionText = Annotated[
    str, Field(max_length=MAX_SELECTION_CHARS), BeforeValidator(whole_unicode)
]
IdText = Annotated[
    str, Field(min_length=1, max_length=MAX_ID_CHARS), BeforeValidator(whole_unicode)
]
IntentText = Annotated[Intent, BeforeValidator(whole_unicode)]
# Ids in a path, bounded like those in a body; a page number, 1-based.
IdPath = Annotated[str, Path(min_length=1, max_length=MAX_ID_CHARS)]
# A document in a path: its id or a unique prefix of one, which the store resolves only from
# MIN_PREFIX characters on (a shorter one is refused, so the schema states it).
DOC_HELP = f"a document id, or a unique prefix of one ({MIN_PREFIX} characters or more)"
DocPath = Annotated[str, Path(min_length=MIN_PREFIX, max_length=MAX_ID_CHARS, description=DOC_HELP)]
DocText = Annotated[
    str,
    Field(min_length=MIN_PREFIX, max_length=MAX_ID_CHARS, description=DOC_HELP),
    BeforeValidator(whole_unicode),
]
PagePath = Annotated[int, Path(ge=1, le=1_000_000)]
BlockPath = Annotated[str, Path(min_length=1, max_length=MAX_ID_CHARS, description="a block id")]
# A character offset: SQLite stores 64-bit integers; no text is near 2**31 characters.
MAX_OFFSET = 2**31 - 1
# Blocks one selection may anchor: a page or two of a manual's short lines, dragged over.
MAX_ANCHOR_SPANS = 200
Offset = Annotated[int, Field(ge=0, le=MAX_OFFSET)]


class ErrorBody(BaseModel):
    type: str  # the error class, e.g. "TooLarge", "NotFound"
    message: str
    source: str | None = None


class ErrorOut(BaseModel):
    error: ErrorBody


class TooManyOut(ErrorOut):
    """A 429's (or a busy 503's) body: the error and, as in its ``Retry-After``, the
    seconds to wait."""

    retry_after: int


class DocumentList(BaseModel):
    documents: list[DocumentJSON]


class CompareTargetsOut(BaseModel):
    targets: list[str]  # what the selection might be compared with, best first


class CollectionList(BaseModel):
    collections: list[CollectionJSON]  # by name


class CollectionOut(BaseModel):
    collection: CollectionJSON
    documents: list[DocumentJSON]  # the members the caller may see, by title


class ArchiveFileOut(BaseModel):
    """One file of an uploaded archive: ``added``, ``exists`` or ``failed`` (``error``)."""

    source: str
    status: str
    document_id: str | None
    error: str | None


class UploadOut(BaseModel):
    """An upload's outcome. An archive of a repository (``.zip``, ``.tar.gz``, ...) adds
    each of its files: ``document`` is the first one, ``blocks``/``chunks`` the sums,
    ``files`` every file, ``collection`` the one they joined, ``skipped`` the repository
    rules' skips by reason."""

    status: str  # "added" or "exists"
    document: DocumentJSON
    blocks: int
    chunks: int
    files: list[ArchiveFileOut] = []
    collection: CollectionJSON | None = None
    skipped: dict[str, int] = {}


class ReadingProgressOut(BaseModel):
    """How far adding a document has come: ``stage`` (``parse``, ``ocr``, ``vectors``)
    ``done`` of ``total``."""

    stage: str
    done: int
    total: int


class ResumableUploadOut(BaseModel):
    """A resumable upload's state: ``receiving``, ``complete`` (being added), ``added``
    (``document_id`` set) or ``failed`` (``error`` says why)."""

    id: str
    name: str
    length: int
    received: int
    state: str
    document_id: str | None
    error: str
    expires: str
    progress: ReadingProgressOut | None = None  # while it is being added (state complete)

    @classmethod
    def of(cls, upload: ResumableUpload, progress: Progress | None = None) -> ResumableUploadOut:
        return cls(
            id=upload.id,
            name=upload.name,
            length=upload.length,
            received=upload.received,
            state=upload.state,
            document_id=upload.document_id,
            error=upload.error,
            expires=upload.expires,
            progress=None if progress is None else ReadingProgressOut(**asdict(progress)),
        )


class PageOut(BaseModel):
    number: int  # 1-based
    width: float  # PDF points, as displayed
    height: float
    text_rotation: int = 0  # degrees clockwise the page's text lines run (a turned page)
    unread: bool = False  # a scanned page OCR has not read: POST .../pages/{n}/read reads it


class OutlineEntry(BaseModel):
    block_id: str
    level: int
    text: str
    page: int | None


class StructureOut(BaseModel):
    document: DocumentJSON
    pages: list[PageOut]
    blocks: list[BlockJSON]
    outline: list[OutlineEntry]

    @classmethod
    def of(cls, doc: Document, blocks: tuple[Block, ...], job: Job | None = None) -> StructureOut:
        turns = doc.page_turns or (0,) * len(doc.page_sizes)
        pages = [
            PageOut(number=n, width=w, height=h, text_rotation=turn, unread=n in doc.unread_pages)
            for n, ((w, h), turn) in enumerate(zip(doc.page_sizes, turns, strict=False), 1)
        ]
        outline = [
            OutlineEntry(block_id=b.id, level=max(b.heading_level, 1), text=b.text, page=b.page)
            for b in blocks
            if b.kind == "heading"
        ]
        return cls(
            document=document_json(doc, job),
            pages=pages,
            blocks=[block_json(b) for b in blocks],
            outline=outline,
        )


class PageReadOut(BaseModel):
    """A page read now: the document as it is after, and the page's blocks; ``added`` is
    false when the page had been read already (nothing changed)."""

    document: DocumentJSON
    page: int
    blocks: list[BlockJSON]
    added: bool


class PageReadingOut(BaseModel):
    """A page being read in the background: ``state`` reading (``seconds`` so far), read
    (``read`` holds the page read) or failed (``message`` says why)."""

    page: int
    state: Literal["reading", "read", "failed"]
    seconds: float
    message: str
    read: PageReadOut | None


class ThreadList(BaseModel):
    threads: list[ThreadSummaryJSON]  # most recently updated first


class ThreadRename(BaseModel):
    """A thread's new title (as long as a question may be; blank is refused)."""

    title: QuestionText


class SpanIn(BaseModel):
    """Characters ``start:end`` (code points) of one block's text."""

    block_id: IdText
    start: Offset
    end: Offset


class AnchorIn(BaseModel):
    """Where a question is anchored: a block and a character span of it (code points),
    with the selected text (which may run over several blocks). A selection over several
    blocks sends every block's span in ``spans``, in document order; ``block_id``,
    ``start`` and ``end`` then default to the first."""

    block_id: IdText | None = None
    start: Offset | None = None
    end: Offset | None = None
    selected_text: SelectionText | None = None
    spans: Annotated[list[SpanIn], Field(max_length=MAX_ANCHOR_SPANS)] = []


class AskIn(BaseModel):
    """``document_id`` (read along, or one document) or ``collection`` (id or name: its
    documents asked as one), or both (the anchor, if any, is on ``document_id``), or
    neither: every document the caller may read."""

    document_id: DocText | None = None
    collection: IdText | None = None
    question: QuestionText = ""  # may be empty when ``intent`` is given (a question alone)
    intent: IntentText | None = None  # "ask" | "explain" | "example" | "compare"
    anchor: AnchorIn | None = None  # None on a follow-up keeps the thread's anchor
    thread_id: IdText | None = None  # None starts a new thread
    stream: bool = True
    # More documents asked as one (the library's "ask several"), beside ``document_id``.
    documents: list[DocText] = Field(default_factory=list, max_length=MAX_ASKED_DOCUMENTS)
    whole: bool = False  # ask the whole document(s): the thread's anchor is dropped
    # The asker's interface language: a new thread's title for a bare intent is written in
    # it ("解释：“We consider…”" in the Chinese reader); else in its selection's language.
    title_language: Literal["en", "zh"] | None = None


class LoginIn(BaseModel):
    user: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class PasswordIn(BaseModel):
    """The current password (checked, and throttled as a login) and the new one."""

    password: str = Field(min_length=1, max_length=1024)
    new_password: str = Field(min_length=1, max_length=1024)


class SessionOut(BaseModel):
    """Who the request runs as: ``user`` (``local`` for the install's owner), whether the
    server is multi-user, the CSRF token an account session sends as X-CSRF-Token, its
    orgs, and ``admin_of``: the orgs whose shared documents it may re-share."""

    user: str
    multi_user: bool
    csrf_token: str | None = None
    orgs: list[str] = []
    admin_of: list[str] = []


class VisibilityIn(BaseModel):
    visibility: Visibility
