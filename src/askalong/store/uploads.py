"""The resumable uploads' protocol (``askalong.resumable``): one of the aggregates
``Store`` joins (``askalong.store.base``)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from askalong.types import Access
from askalong.values.uploads import ResumableUpload


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
