"""``ResumableUploads``: create an upload, take its bytes piece by piece at the right
offset, and turn the finished file into a document exactly once.

The rules a client can rely on: a piece lands only at the committed offset (``Conflict``
otherwise, so a duplicated or out-of-order piece changes nothing); a piece whose digest
does not match is dropped whole; once every byte is in, one caller claims the upload (a
conditional update in the store) and only that caller adds the document. Appends are
serialised by a lock so the file and the committed offset move together; bodies are
received outside it, so a slow client holds up nobody.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from askalong.errors import AskAlongError, Conflict, EmptyDocument, Expired, TooLarge, TooMany
from askalong.parse.progress import Progress
from askalong.resumable.area import discard
from askalong.resumable.checksum import check_whole_file
from askalong.resumable.storage import UploadStorage
from askalong.store.sql.uploads import stamp
from askalong.store.uploads import UploadStore
from askalong.types import Access
from askalong.values.uploads import ResumableUpload

# Adds the finished file as a document for its owner: its bytes and display name -> its id.
AddDocument = Callable[[bytes, str, Access], str]


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int  # one file, whole
    max_piece_bytes: int  # one request's body
    max_pending: int  # a user's uploads still receiving bytes
    lifetime: timedelta  # an upload not finished by then is swept away


def _now() -> datetime:
    return datetime.now(UTC)


class ResumableUploads:
    def __init__(
        self,
        store: UploadStore,
        area: UploadStorage,
        limits: UploadLimits,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        self.store, self.area, self.limits, self._clock = store, area, limits, clock
        self._appending = threading.Lock()
        self._reading: dict[str, Progress] = {}  # upload id -> how far adding it has come

    def report(self, upload_id: str, progress: Progress) -> None:
        """Where adding a complete upload has got to (pages parsed, OCR, ...)."""
        self._reading[upload_id] = progress

    def progress_of(self, upload_id: str) -> Progress | None:
        return self._reading.get(upload_id)

    def create(
        self, length: int, name: str, metadata: str, sha256: str, access: Access
    ) -> ResumableUpload:
        if length > self.limits.max_bytes:
            raise TooLarge.of(length, self.limits.max_bytes, source=name)
        if length == 0:  # no piece would ever complete it: refused before it takes a slot
            raise EmptyDocument("the file is empty (Upload-Length: 0): nothing to add", source=name)
        if self.store.pending_uploads(access.user) >= self.limits.max_pending:
            raise TooMany(
                f"{self.limits.max_pending} uploads are already in progress; finish or cancel"
                " one first (ASKALONG_UPLOAD_PENDING)",
                source=name,
            )
        now = self._clock()
        upload = ResumableUpload(
            id=secrets.token_hex(16),
            owner=access.user,
            length=length,
            received=0,
            name=name,
            metadata=metadata,
            sha256=sha256,
            state="receiving",
            document_id=None,
            error="",
            created=stamp(now),
            expires=stamp(now + self.limits.lifetime),
        )
        self.area.create(upload.id)
        self.store.create_upload(upload)
        return upload

    def status(self, upload_id: str, access: Access) -> ResumableUpload:
        """The upload as stored; ``Expired`` (and gone) once past its expiry unfinished."""
        upload = self.store.get_upload(upload_id, access)
        if upload.state == "receiving" and upload.expires < stamp(self._clock()):
            self._forget(upload.id)
            raise Expired("this upload expired before it was finished", source=upload_id)
        return upload

    def append(
        self, upload_id: str, offset: int, piece: Path, size: int, access: Access
    ) -> tuple[ResumableUpload, bool]:
        """Add ``piece`` (``size`` bytes, already checked) at ``offset``; the upload after
        it and whether this call completed it (and so must add the document)."""
        try:
            with self._appending:
                upload = self.status(upload_id, access)
                self._check_piece(upload, offset, size)
                if size:
                    self.area.append(upload.id, offset, piece)
                    if not self.store.advance_upload(upload.id, offset, offset + size):
                        raise Conflict("the upload moved on meanwhile", source=upload_id)
                upload = replace(upload, received=offset + size)
                completed = upload.finished and self.store.claim_upload(upload.id)
        finally:
            discard(piece)
        return (replace(upload, state="complete") if completed else upload), completed

    def _check_piece(self, upload: ResumableUpload, offset: int, size: int) -> None:
        if upload.state != "receiving" or offset != upload.received:
            raise Conflict(
                f"the upload is at offset {upload.received}, not {offset}"
                if upload.state == "receiving"
                else "the upload is already complete",
                source=upload.id,
            )
        if offset + size > upload.length:
            raise TooLarge(
                f"{offset + size} bytes would pass the declared length {upload.length}",
                source=upload.id,
            )

    def add_document(
        self, upload: ResumableUpload, add: AddDocument, owner: Access
    ) -> ResumableUpload:
        """Turn a claimed upload into its document for ``owner`` (the uploader, whose orgs
        a shared document is tagged with), or record why not; the bytes go."""
        try:
            data = self.area.read(upload.id, upload.length)
            check_whole_file(upload.sha256, data, upload.name)
            document_id: str | None = add(data, upload.name, owner)
            error = ""
        except AskAlongError as exc:
            document_id, error = None, str(exc)
        self.store.settle_upload(upload.id, document_id, error)
        self.area.remove(upload.id)
        self._reading.pop(upload.id, None)
        return replace(
            upload,
            state="added" if document_id else "failed",
            document_id=document_id,
            error=error,
        )

    def resume(self, add: AddDocument, access_of: Callable[[str], Access]) -> list[ResumableUpload]:
        """Add the documents of uploads completed before a stop, each for its owner as
        ``access_of`` tells (and sweep leftover pieces)."""
        for piece in self.area.leftover_pieces():
            discard(piece)
        unsettled = self.store.unsettled_uploads()
        return [self.add_document(u, add, access_of(u.owner)) for u in unsettled]

    def terminate(self, upload_id: str, access: Access) -> None:
        with self._appending:
            upload = self.store.get_upload(upload_id, access)
            self._forget(upload.id)

    def sweep(self) -> list[str]:
        """Remove every upload past its expiry unfinished; their ids."""
        expired = self.store.expired_uploads(self._clock())
        with self._appending:
            for upload_id in expired:
                self._forget(upload_id)
        return expired

    def _forget(self, upload_id: str) -> None:
        self.store.delete_upload(upload_id)
        self.area.remove(upload_id)
