"""The value of an upload in progress (``askalong.resumable``): what the store keeps of it
and the tus routes report."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResumableUpload:
    """An upload in progress over the tus protocol, private to its owner.

    ``received`` bytes of ``length`` are stored; ``state`` is ``receiving``, then
    ``complete`` (all bytes in, claimed by exactly one completer), then ``added`` (with
    ``document_id``) or ``failed`` (with ``error``). ``name`` is a display name only."""

    id: str
    owner: str
    length: int
    received: int
    name: str
    metadata: str  # the Upload-Metadata header as the client sent it
    sha256: str  # the whole file's digest the client gave, or ""
    state: str
    document_id: str | None
    error: str
    created: str
    expires: str

    @property
    def finished(self) -> bool:
        return self.received == self.length
