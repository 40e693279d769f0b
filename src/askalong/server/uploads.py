"""Reading a multipart upload with the size limit enforced while the bytes arrive.

The body is counted as it is received, so an oversized upload is refused after at most
``limit`` bytes instead of after being spooled whole; the parts themselves are spooled to a
temporary file by the form parser. The uploaded file name is only ever a display name.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.types import Message, Receive

from askalong.errors import InputError, TooLarge

# Room for the multipart boundaries and part headers around the file itself.
MULTIPART_OVERHEAD = 64 * 1024
MAX_NAME_CHARS = 255


@dataclass(frozen=True)
class ReceivedFile:
    data: bytes
    name: str  # display name only, never a path


async def receive_upload(request: Request, limit: int, field: str = "file") -> ReceivedFile:
    """The single uploaded file of field ``field``, at most ``limit`` bytes."""
    _check_declared_length(request, limit)
    limited = Request(request.scope, _counting_receive(request, limit + MULTIPART_OVERHEAD))
    async with limited.form(max_files=1, max_fields=8) as form:
        upload = form.get(field)
        if not isinstance(upload, UploadFile):
            raise InputError(f"send the document as multipart field {field!r}", source="upload")
        data = await upload.read(limit + 1)
        name = display_name(upload.filename)
    if len(data) > limit:
        raise TooLarge.of(len(data), limit, source=name)
    return ReceivedFile(data, name)


def display_name(filename: str | None) -> str:
    """The last path component of what the client sent, without control characters."""
    raw = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = "".join(ch for ch in raw if ch.isprintable()).strip()
    return cleaned[:MAX_NAME_CHARS] or "upload"


def _check_declared_length(request: Request, limit: int) -> None:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit + MULTIPART_OVERHEAD:
        raise TooLarge.of(int(declared), limit, source="upload")


def _over_limit(limit: int) -> TooLarge:
    return TooLarge(
        f"the upload is over the {limit / 2**20:.0f} MB limit (ASKALONG_MAX_FILE_MB)",
        source="upload",
    )


def _counting_receive(request: Request, allowed: int) -> Receive:
    received = 0

    async def receive() -> Message:
        nonlocal received
        message = await request.receive()
        received += len(message.get("body", b""))
        if received > allowed:
            raise _over_limit(allowed - MULTIPART_OVERHEAD)
        return message

    return receive
