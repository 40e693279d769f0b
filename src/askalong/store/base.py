"""The store protocols, one per aggregate, and ``Store``: every aggregate of one backend.

A consumer asks for the narrowest protocol it needs (``DocumentStore`` to read documents,
``ThreadStore`` for conversations, ``CollectionStore`` for named sets of documents,
``UploadStore`` for resumable uploads), so a backend or a test double implements only
that, and an aggregate added later (accounts, jobs, feedback) leaves them untouched.
This module names no backend: ``askalong.store.backends.open_store`` picks one.

Every method that reads documents on someone's behalf takes an ``Access`` and applies it
inside the backend's query, so a document the caller may not see is never even fetched.
Methods that take a document id (``blocks``, ``chunks``, ...) expect the caller to have
resolved that id through ``get_document`` with the right ``Access`` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Protocol

from askalong.accounts import ApiToken, Membership, Org, Role, User
from askalong.feedback.record import Feedback, FeedbackFilter, Triage
from askalong.jobs.job import Job
from askalong.maintain.conflicts import ConflictPair
from askalong.resumable.upload import ResumableUpload
from askalong.types import (
    Access,
    Block,
    Chunk,
    Collection,
    Document,
    StoredDocument,
    Thread,
    Turn,
    Visibility,
)

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


class UploadStore(Protocol):
    """Resumable uploads in progress, private to their owner; the offset and the
    completion move only by conditional updates, so racing requests cannot both win."""

    def create_upload(self, upload: ResumableUpload) -> None: ...

    def get_upload(self, upload_id: str, access: Access) -> ResumableUpload:
        """``NotFound`` when unknown or not the caller's."""
        ...

    def pending_uploads(self, owner: str) -> int:
        """How many of ``owner``'s uploads are still receiving bytes."""
        ...

    def advance_upload(self, upload_id: str, expected: int, received: int) -> bool:
        """Move the offset from ``expected`` to ``received``; False if it was not there."""
        ...

    def claim_upload(self, upload_id: str) -> bool:
        """Mark a fully received upload complete: True for exactly one caller."""
        ...

    def settle_upload(self, upload_id: str, document_id: str | None, error: str = "") -> None:
        """Its document (``added``), or why there is none (``failed``)."""
        ...

    def unsettled_uploads(self) -> list[ResumableUpload]:
        """Complete uploads whose document was never made."""
        ...

    def delete_upload(self, upload_id: str) -> bool: ...

    def expired_uploads(self, now: datetime) -> list[str]:
        """Ids of uploads past their expiry that never completed."""
        ...


class UserStore(Protocol):
    """Accounts and their API tokens. A disabled user's password and tokens stop working
    at once: every check reads the flag. No accounts at all is the zero-config install."""

    def add_user(self, user_id: str, password: str, *, admin: bool | None = None) -> User:
        """A new user (``InputError`` if the id is taken or invalid, or the password short);
        ``admin`` None: a site administrator exactly when it is the first account."""
        ...

    def list_users(self) -> list[User]: ...

    def get_user(self, user_id: str) -> User | None: ...

    def has_users(self) -> bool:
        """Whether any account exists: the server is multi-user from the first one."""
        ...

    def set_disabled(self, user_id: str, disabled: bool) -> User: ...

    def check_password(self, user_id: str, password: str) -> User | None:
        """The user, if enabled and ``password`` is theirs; None otherwise (never why)."""
        ...

    def create_token(self, user_id: str, label: str = "") -> tuple[ApiToken, str]:
        """A new API token and its secret, which is shown once and never stored."""
        ...

    def revoke_token(self, token_id: str) -> ApiToken: ...

    def list_tokens(self, user_id: str | None = None) -> list[ApiToken]: ...

    def user_of_token(self, secret: str) -> User | None:
        """The enabled user whose live token ``secret`` is; None otherwise."""
        ...


class OrgStore(Protocol):
    """Organisations as a tree, memberships with a role, and from them each user's
    ``Access`` (computed once per request by the edge)."""

    def add_org(self, org_id: str, parent: str | None = None) -> Org: ...

    def list_orgs(self) -> list[Org]: ...

    def set_member(self, org_id: str, user_id: str, role: Role | None) -> Membership | None:
        """Make ``user_id`` a member of ``org_id`` with ``role``; None removes them."""
        ...

    def memberships(self, user_id: str | None = None) -> list[Membership]: ...

    def access_of(self, user_id: str) -> Access:
        """The user's ``Access``: ``orgs`` their orgs and every ancestor of those,
        ``admin_of`` the orgs they administer, ``member_of``
        their own orgs (what documents they add are tagged with)."""
        ...


class LimitStore(Protocol):
    """Per-user request counts in fixed windows (``server/limits.py`` decides the limit):
    kept in the store so that every server process over one store counts together."""

    def count_request(self, user_id: str, window_start: int) -> int:
        """Count one request of ``user_id`` in the window starting at ``window_start``
        (seconds since the epoch, a multiple of the window's length) and return how many
        that window holds now; a new start begins a new count."""
        ...


class JobStore(Protocol):
    """Ingestion jobs (``jobs/``), one per document: queued in the same transaction as the
    document's row, then moved only by conditional updates naming the lease owner, so two
    workers never hold one job and a worker that lost its job writes nothing."""

    def enqueue_document(self, document: Document, original: bytes) -> Job | None:
        """The document's row (no blocks yet), original and pending job, all or nothing;
        None when the document is already stored."""
        ...

    def retry_job(self, document_id: str) -> Job:
        """A finished job pending again (attempts reset); a document with none given one."""
        ...

    def claim_job(self, owner: str, now: float, lease_until: float) -> Job | None: ...

    def beat_job(
        self, job: Job, owner: str, progress: tuple[str, int, int], now: float, lease_until: float
    ) -> bool:
        """Progress (state, done, total) and a renewed lease; False: ``owner`` lost it."""
        ...

    def finish_job(self, job: Job, owner: str) -> bool: ...

    def release_job(
        self, job: Job, owner: str, error: str, *, final: bool, not_before: float | None = None
    ) -> bool: ...

    def take_stale_jobs(
        self, cutoff: float, owner: str, now: float, lease_until: float
    ) -> list[Job]:
        """Running jobs with a heartbeat older than ``cutoff``, taken over by ``owner``."""
        ...

    def store_parsed(self, stored: StoredDocument) -> None:
        """Replace a stored document's head fields, blocks and chunks, all or nothing."""
        ...

    def set_notices(self, document_id: str, notices: Sequence[str]) -> None: ...

    def clear_content(self, document_id: str) -> None:
        """Remove the document's blocks and chunks (what an interrupted attempt wrote)."""
        ...

    def job_of(self, document_id: str) -> Job | None: ...

    def jobs(self, document_ids: Sequence[str] | None = None) -> list[Job]: ...


class ConflictStore(Protocol):
    """The contradiction scan's pairs and which documents it has read (``maintain/
    conflict_scan``); a pair goes with either of its chunks, a scan record with any change
    to its document's chunks."""

    def record_scan(
        self,
        document_id: str,
        pairs: Sequence[ConflictPair],
        *,
        chunks: int,
        skipped: int,
        scanned_at: str,
    ) -> None:
        """Add the pairs found for the document's chunks (those whose chunks still exist;
        pairs already known stay) and note it scanned, ``skipped`` chunks lacking vectors."""
        ...

    def conflict_pairs(
        self, access: Access, document_ids: Sequence[str] | None = None
    ) -> list[ConflictPair]:
        """The pairs both of whose documents ``access`` may see (and, when given, one of
        whose documents is among ``document_ids``), oldest found first."""
        ...

    def unscanned_documents(self) -> list[str]:
        """Documents with chunks never scanned, changed since, or scanned with skips."""
        ...

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of these ids that exist, by id (whatever their document)."""
        ...


class FeedbackStore(Protocol):
    """Ratings of answers with their frozen copies (``askalong.feedback``), private to
    their owner like threads (``everything``: all, the admin view); one per owner and turn."""

    def save_feedback(self, item: Feedback) -> Feedback:
        """Store ``item``; the owner's earlier record on the same turn is replaced (its id
        kept, and returned in the record)."""
        ...

    def get_feedback(self, feedback_id: str, access: Access) -> Feedback:
        """``NotFound`` when unknown or not the caller's."""
        ...

    def list_feedback(self, access: Access, where: FeedbackFilter | None = None) -> list[Feedback]:
        """The caller's records (``everything``: anyone's) that ``where`` keeps, newest first."""
        ...

    def set_triage(self, feedback_id: str, triage: Triage) -> None: ...


class Store(
    DocumentStore,
    ThreadStore,
    CollectionStore,
    UploadStore,
    UserStore,
    OrgStore,
    LimitStore,
    JobStore,
    ConflictStore,
    FeedbackStore,
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
