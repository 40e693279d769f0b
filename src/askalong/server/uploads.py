"""Reading a multipart upload: the one file part, at most ``limit`` bytes.

The body itself is counted as it arrives by the app's body guard (``edge.py``: the file
limit plus ``MULTIPART_OVERHEAD`` on this route), so an oversized upload is refused after
at most that many bytes instead of after being spooled whole; the parts are spooled to a
temporary file by the form parser. The uploaded file name is only ever a display name.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import UploadFile
from starlette.requests import Request

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
    async with request.form(max_files=1, max_fields=8) as form:
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
