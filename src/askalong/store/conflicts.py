"""The contradiction scan's protocol (``maintain/conflict_scan``): one of the
aggregates ``Store`` joins (``askalong.store.base``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from askalong.types import Access, Chunk
from askalong.values.conflicts import ConflictPair


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
