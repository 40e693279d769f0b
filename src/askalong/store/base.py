"""The store protocols, one per aggregate, and ``Store``: every aggregate of one backend.

A consumer asks for the narrowest protocol it needs (``DocumentStore`` to read documents,
``ThreadStore`` for conversations, ``CollectionStore`` for named sets of documents), so a
backend or a test double implements only that, and an aggregate added later leaves them
untouched. The content aggregates are here; every other aggregate's protocol has its own
module beside this one (``uploads``, ``accounts``, ``sessions``, ``limits``, ``logins``,
``jobs``, ``conflicts``, ``feedback``, ``symbols``), and ``Store`` joins them all. This module
names no backend:
``askalong.store.backends.open_store`` picks one.

Every method that reads documents on someone's behalf takes an ``Access`` and applies it
inside the backend's query, so a document the caller may not see is never even fetched.
Methods that take a document id (``blocks``, ``chunks``, ...) expect the caller to have
resolved that id through ``get_document`` with the right ``Access`` first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Protocol

# The aggregates' protocols beyond the content ones live in their own modules; they are
# imported here for ``Store``, and named in ``__all__`` only so that imports written
# before the split (``from askalong.store.base import JobStore``) keep working: new code
# imports each from its own module.
from askalong.store.accounts import OrgStore, UserStore
from askalong.store.conflicts import ConflictStore
from askalong.store.feedback import FeedbackStore
from askalong.store.jobs import JobStore
from askalong.store.limits import LimitStore
from askalong.store.logins import LoginStore
from askalong.store.sessions import SessionStore
from askalong.store.symbols import SymbolStore
from askalong.store.uploads import UploadStore
from askalong.types import Access, Block, Chunk, Document, StoredDocument, Visibility
from askalong.values.collections import Collection
from askalong.values.threads import Thread, Turn

__all__ = [
    "MIN_PREFIX",
    "CollectionStore",
    "ConflictStore",
    "DocumentCounts",
    "DocumentStore",
    "FeedbackStore",
    "JobStore",
    "LimitStore",
    "OrgStore",
    "Store",
    "ThreadStore",
    "UploadStore",
    "UserStore",
]

MIN_PREFIX = 4  # shortest id prefix get_document resolves


@dataclass(frozen=True)
class DocumentCounts:
    """How many documents, and chunks in them, a caller may see."""

    documents: int
    chunks: int


class DocumentStore(Protocol):
    """Documents with their blocks, chunks and original files."""

    def add_document(self, doc: StoredDocument, original: bytes) -> None:
        """Store the document, its blocks and chunks and its original bytes, all or nothing.

        A document whose id is already stored is left unchanged (see ``has_document``).
        """
        ...

    def has_document(self, doc_id: str) -> bool: ...

    def get_document(self, ref: str, access: Access) -> Document:
        """Find by full id or unique prefix of at least ``MIN_PREFIX`` characters.

        Raises ``NotFound`` when unknown or not visible, ``InputError`` when ambiguous.
        """
        ...

    def list_documents(self, access: Access) -> list[Document]:
        """The documents ``access`` may see, newest first."""
        ...

    def document_titles(self, doc_ids: Iterable[str], access: Access) -> dict[str, str]:
        """The titles of those of ``doc_ids`` that ``access`` may see, in one query; an id
        not visible (or not stored) is left out, never an error that would name it."""
        ...

    def count_documents(
        self, access: Access, document_ids: Sequence[str] | None = None
    ) -> DocumentCounts:
        """The documents ``access`` may see (among ``document_ids`` when given) and their
        chunks, counted in the backend's query: no row is read to count it."""
        ...

    def blocks(self, doc_id: str, *, page: int | None = None) -> tuple[Block, ...]:
        """The document's blocks in reading order, optionally of one page only."""
        ...

    def block(self, doc_id: str, block_id: str) -> Block: ...

    def add_page(
        self, doc_id: str, page: int, blocks: tuple[Block, ...], chunks: tuple[Chunk, ...]
    ) -> bool:
        """Put the blocks and chunks of ``page``, one of the document's unread pages, in
        reading order among its own (ids as given, orders made room for), and mark the
        page read, all or nothing. A page not (or no longer) unread changes nothing: returns
        False, so reading a page twice stores it once."""
        ...

    def chunks(self, doc_id: str) -> tuple[Chunk, ...]: ...

    def chunks_around(self, chunk_ids: Sequence[str]) -> tuple[Chunk, ...]:
        """The chunks of ``chunk_ids`` and their neighbours (order ± 1) in their documents,
        in one query (small-to-big reads no more); an unknown id adds nothing."""
        ...

    def chunk(self, chunk_id: str) -> Chunk: ...

    def opening_chunks(
        self, chunk_ids: Sequence[str], access: Access
    ) -> tuple[tuple[Chunk, str], ...]:
        """The chunks of ``chunk_ids`` that open their document (order 0), of documents
        ``access`` may see, each with its document's title, in one query: what a search
        checks for a title chunk, without reading the others (nor the titles apart)."""
        ...

    def set_visibility(self, doc_id: str, visibility: Visibility, access: Access) -> Document:
        """Change who may see the document and return it changed; only its owner or
        ``access.everything`` (``NotFound`` otherwise, ``InputError`` for an unknown value).

        The search indexes keep their own copy of the permission fields: change it through
        ``Library.set_visibility``, which updates both.
        """
        ...

    def delete_document(self, doc_id: str, access: Access) -> None:
        """Remove the document and its original; only its owner or ``access.everything``."""
        ...

    def original_path(self, doc: Document) -> Path: ...


class ThreadStore(Protocol):
    """Conversations: threads and their turns, private to their owner."""

    def save_turn(self, thread: Thread, turn: Turn) -> None:
        """Add ``turn`` to ``thread`` (created on its first turn) in one transaction."""
        ...

    def get_thread(self, thread_id: str, access: Access) -> Thread:
        """The thread, if ``access`` owns it (``NotFound`` otherwise)."""
        ...

    def list_threads(self, access: Access, *, document_id: str | None = None) -> list[Thread]:
        """The threads ``access`` owns, most recently updated first."""
        ...

    def turns(self, thread_id: str) -> tuple[Turn, ...]:
        """A thread's turns in order."""
        ...

    def rename_thread(self, thread_id: str, title: str, access: Access) -> Thread:
        """Give the thread a new title (stripped; ``InputError`` when blank) and return it;
        only its owner (``NotFound`` otherwise). ``updated`` stays: it tracks the turns."""
        ...

    def delete_thread(self, thread_id: str, access: Access) -> None:
        """Remove a thread with its turns; only its owner (``NotFound`` otherwise)."""
        ...


class CollectionStore(Protocol):
    """Named sets of documents, private to their owner; a member is listed and counted
    only for those who may see it."""

    def add_to_collection(
        self, name: str, document_ids: Sequence[str], access: Access
    ) -> Collection:
        """Put the documents in ``access.user``'s collection ``name`` (made if new; a
        member already in stays); every document must be visible to ``access``
        (``NotFound`` otherwise, and nothing changes)."""
        ...

    def get_collection(self, ref: str, access: Access) -> Collection:
        """By id, or by name (the caller's own first); ``NotFound`` when unknown or not
        the caller's, ``InputError`` when several owners' share the name."""
        ...

    def list_collections(self, access: Access) -> list[Collection]:
        """The collections ``access`` owns (``everything``: all), by name."""
        ...

    def collection_documents(self, collection_id: str, access: Access) -> list[Document]:
        """The members ``access`` may see, by title; the caller resolved the collection
        with ``get_collection`` first."""
        ...

    def collection_document_ids(self, collection_id: str, access: Access) -> list[str]:
        """The ids of ``collection_documents`` (sorted): what a search filter needs."""
        ...

    def delete_collection(self, collection_id: str, access: Access) -> None:
        """Remove the collection and its memberships; its documents stay."""
        ...

    def document_collections(self, document_id: str, access: Access) -> list[Collection]:
        """The collections of ``access`` (``everything``: anyone's) that hold the document,
        by name: a source file's repository."""
        ...


class Store(
    DocumentStore,
    ThreadStore,
    CollectionStore,
    UploadStore,
    UserStore,
    OrgStore,
    LimitStore,
    LoginStore,
    SessionStore,
    JobStore,
    ConflictStore,
    FeedbackStore,
    SymbolStore,
    Protocol,
):
    """Every aggregate of one backend, opened and closed together."""

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
