"""One hierarchy of domain errors; the CLI and HTTP edges translate them.

::

    AskAlongError
     ├── InputError              bad input from the user (exit 1 / HTTP 400)
     │    ├── UnsupportedFormat   content is no format we read
     │    ├── EmptyDocument       the file has no text at all
     │    ├── CorruptDocument     truncated, damaged, or undecodable
     │    ├── EncryptedDocument   password-protected
     │    ├── TooLarge            over the configured size limit
     │    ├── ParseTimeout        parsing took longer than the per-file limit
     │    ├── Unreadable          the path cannot be read (missing, permissions, a device)
     │    ├── FetchError          a URL could not be fetched
     │    └── ChecksumMismatch    bytes that do not match the digest sent with them
     ├── NotFound                 unknown document / block id (HTTP 404)
     │    └── Expired             a resource that existed and has lapsed (HTTP 410)
     ├── Unauthorized             no valid credential in a multi-user server (HTTP 401)
     ├── Conflict                 the request disagrees with the resource's state (HTTP 409)
     ├── TooMany                  a per-user limit is reached; try later (HTTP 429)
     ├── ConfigError              a bad setting, naming the key and the valid choices
     ├── StoreError               the store failed (nothing half-written is left behind)
     │    ├── IndexUnreadable     a search index cannot be opened (``askalong doctor --repair``)
     │    └── DiskFull            a write found no space left (HTTP 507), naming the file
     ├── ProviderError            an embedding, chat or rerank provider failed (HTTP 502)
     ├── Unavailable              a worker the request needed stopped mid-way (HTTP 503)
     └── Busy                     a shared resource stayed taken past a short wait (HTTP 503)

Every error carries the ``source`` it is about (a file name, URL or id) so one line
can say what went wrong where.
"""

from __future__ import annotations


class AskAlongError(Exception):
    """Base of every error AskAlong raises on purpose."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source

    def __str__(self) -> str:
        return f"{self.source}: {self.message}" if self.source else self.message


class InputError(AskAlongError):
    """The input given by the user cannot be used."""


class UnsupportedFormat(InputError):
    """The content is not a format AskAlong reads."""


class EmptyDocument(InputError):
    """The file holds no text."""


class CorruptDocument(InputError):
    """The file is truncated, damaged or cannot be decoded."""


class EncryptedDocument(InputError):
    """The file is password-protected."""


class TooLarge(InputError):
    """The input is over the configured size limit."""

    @classmethod
    def of(cls, size: int, limit: int, *, source: str) -> TooLarge:
        mb = 2**20
        message = f"{size / mb:.1f} MB is over the {limit / mb:.0f} MB limit (ASKALONG_MAX_FILE_MB)"
        return cls(message, source=source)


class ParseTimeout(InputError):
    """Parsing did not finish within the per-file time limit."""


class Unreadable(InputError):
    """The path cannot be read."""


class FetchError(InputError):
    """A URL could not be fetched."""


class ChecksumMismatch(InputError):
    """Bytes whose digest is not the one the client sent with them."""


class NotFound(AskAlongError):
    """No such document, block or chunk."""


class Expired(NotFound):
    """The resource existed but has lapsed (an abandoned upload past its expiry)."""


class Unauthorized(AskAlongError):
    """The request carries no credential the server accepts (multi-user mode)."""


class Conflict(AskAlongError):
    """The request disagrees with the resource's current state (an upload offset)."""


class TooMany(AskAlongError):
    """A per-user limit is reached (uploads in flight, questions at once, requests in a
    minute); trying again after ``retry_after`` seconds may work."""

    def __init__(self, message: str, *, source: str | None = None, retry_after: int = 30) -> None:
        super().__init__(message, source=source)
        self.retry_after = retry_after


class ConfigError(AskAlongError):
    """A setting has a bad value."""


class StoreError(AskAlongError):
    """The store could not complete an operation."""


class DiskFull(StoreError):
    """A write found the disk (or the user's quota) full; ``source`` is the file."""

    @classmethod
    def of(cls, path: str) -> DiskFull:
        return cls(
            f"disk full: no space left to write {path}; free some space and retry", source=path
        )


class IndexUnreadable(StoreError):
    """A search index on disk cannot be opened (corrupt or unreadable files); commands that
    do not search still work, searches say how to rebuild it."""


class ProviderError(AskAlongError):
    """An embedding, chat or rerank provider failed (endpoint down, bad reply, engine error)."""


class Unavailable(AskAlongError):
    """A worker process the request needed stopped before it answered (killed, not the
    request's fault as far as can be told): it is replaced, and trying again may work."""


class Busy(AskAlongError):
    """A shared resource (the write lock, the slots for long steps) stayed taken past a
    short wait: the request is refused at once rather than parked; trying again after
    ``retry_after`` seconds may work."""

    def __init__(self, message: str, *, source: str | None = None, retry_after: int = 2) -> None:
        super().__init__(message, source=source)
        self.retry_after = retry_after
