"""The tus 1.0 protocol's headers: what a request says and what every response carries.

tus (an open protocol for resumable uploads) moves an upload with plain HTTP verbs and
headers: ``POST`` with ``Upload-Length`` creates it, ``HEAD`` tells its ``Upload-Offset``,
``PATCH`` appends at that offset, ``DELETE`` ends it. We speak core 1.0.0 with the
creation, termination, expiration and checksum extensions, so standard clients
(tus-js-client in the reader, tuspy in scripts) work unchanged.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime
from email.utils import format_datetime

from starlette.requests import Request

from askalong.errors import InputError
from askalong.resumable.checksum import ALGORITHMS
from askalong.values.uploads import ResumableUpload

TUS_VERSION = "1.0.0"
EXTENSIONS = ("creation", "termination", "expiration", "checksum")
OFFSET_MEDIA_TYPE = "application/offset+octet-stream"
MAX_METADATA_CHARS = 4096
_SHA256_HEX = re.compile(r"[0-9a-f]{64}")
_DIGITS = re.compile(r"[0-9]{1,15}")


def capabilities(max_bytes: int) -> dict[str, str]:
    """The ``OPTIONS`` answer: versions, extensions, size limit, checksum algorithms."""
    return {
        "Tus-Resumable": TUS_VERSION,
        "Tus-Version": TUS_VERSION,
        "Tus-Extension": ",".join(EXTENSIONS),
        "Tus-Max-Size": str(max_bytes),
        "Tus-Checksum-Algorithm": ",".join(ALGORITHMS),
    }


def speaks_our_version(request: Request) -> bool:
    return request.headers.get("tus-resumable") == TUS_VERSION


def whole_number(request: Request, header: str) -> int:
    """A non-negative integer header (``Upload-Length``, ``Upload-Offset``)."""
    value = request.headers.get(header, "").strip()
    if not _DIGITS.fullmatch(value):
        raise InputError(f"send {header} as a whole number of bytes", source=header)
    return int(value)


def parse_metadata(header: str) -> dict[str, str]:
    """``key base64value,key2 base64value2`` (a value may be absent); bad base64 or UTF-8
    is a bad request, naming the key."""
    if len(header) > MAX_METADATA_CHARS:
        raise InputError(f"at most {MAX_METADATA_CHARS} characters", source="Upload-Metadata")
    found: dict[str, str] = {}
    for pair in filter(None, (part.strip() for part in header.split(","))):
        key, _, encoded = pair.partition(" ")
        try:
            found[key] = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
        except (binascii.Error, ValueError) as exc:
            raise InputError(
                f"metadata {key!r} is not base64 UTF-8", source="Upload-Metadata"
            ) from exc
    return found


def declared_sha256(metadata: dict[str, str]) -> str:
    """The whole file's sha256 (hex) a client may declare as metadata ``sha256``."""
    value = metadata.get("sha256", "").strip().lower()
    if value and not _SHA256_HEX.fullmatch(value):
        raise InputError("metadata sha256 must be 64 hex digits", source="Upload-Metadata")
    return value


def state_headers(upload: ResumableUpload) -> dict[str, str]:
    """What ``HEAD`` and ``PATCH`` answers carry: the offset, the length, the expiry."""
    headers = {
        "Tus-Resumable": TUS_VERSION,
        "Upload-Offset": str(upload.received),
        "Upload-Length": str(upload.length),
        "Cache-Control": "no-store",
    }
    if upload.state == "receiving":
        headers["Upload-Expires"] = http_date(upload.expires)
    return headers


def http_date(stamp: str) -> str:
    """A store time stamp as an HTTP date (``Wed, 02 Dec 2026 18:00:00 GMT``)."""
    return format_datetime(datetime.fromisoformat(stamp), usegmt=True)
