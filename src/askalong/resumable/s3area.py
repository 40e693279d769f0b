"""An upload's committed bytes in S3: one object per piece, keyed by the server's random
upload id and the piece's offset (``prefix/uploads/<id>/<offset, 20 digits>``), never by
anything the client sent. Appending at an offset first drops the pieces at or past it
(as the local file is cut back), so a piece retried after a crash is kept once. Each
piece carries its SHA-256, sent for the store to check on the way in and checked again
when the whole upload is read back."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from askalong.errors import StoreError
from askalong.files.s3 import S3Place, s3_client, s3_errors, sha256_base64
from askalong.resumable.area import UploadArea, check_upload_id

OFFSET_DIGITS = 20
DIGEST_KEY = "sha256"  # the piece's hex digest in the object's metadata


class S3UploadArea:
    """``UploadStorage`` over a bucket; ``local`` holds the requests' temporary pieces."""

    def __init__(self, place: S3Place, local: UploadArea, client: Any = None) -> None:
        self.place, self.local = place, local
        self.client = client or s3_client()

    def new_piece(self) -> tuple[int, Path]:
        return self.local.new_piece()

    def leftover_pieces(self) -> list[Path]:
        return self.local.leftover_pieces()

    def create(self, upload_id: str) -> None:
        check_upload_id(upload_id)  # nothing to make: an upload's pieces are its objects

    def append(self, upload_id: str, offset: int, piece: Path) -> None:
        self._drop(upload_id, lambda at: at >= offset)
        data = piece.read_bytes()
        if not data:
            return
        key = self._piece_key(upload_id, offset)
        with s3_errors(key):
            self.client.put_object(
                Bucket=self.place.bucket,
                Key=key,
                Body=data,
                ChecksumSHA256=sha256_base64(data),
                Metadata={DIGEST_KEY: hashlib.sha256(data).hexdigest()},
            )

    def read(self, upload_id: str, length: int) -> bytes:
        """The first ``length`` bytes, each piece checked against its digest."""
        parts: list[bytes] = []
        size = 0
        for at, key in self._pieces(upload_id):
            if size >= length:
                break
            if at != size:
                raise StoreError(f"the upload has a gap at byte {size}", source=upload_id)
            parts.append(self._piece(key))
            size += len(parts[-1])
        if size < length:
            raise StoreError(f"the upload holds {size} of {length} bytes", source=upload_id)
        return b"".join(parts)[:length]

    def remove(self, upload_id: str) -> None:
        self._drop(upload_id, lambda at: True)

    def _piece(self, key: str) -> bytes:
        with s3_errors(key):
            got = self.client.get_object(Bucket=self.place.bucket, Key=key)
            data: bytes = got["Body"].read()
        if hashlib.sha256(data).hexdigest() != got.get("Metadata", {}).get(DIGEST_KEY):
            raise StoreError("a stored piece does not match its digest", source=key)
        return data

    def _piece_key(self, upload_id: str, offset: int) -> str:
        return self.place.key("uploads", check_upload_id(upload_id), f"{offset:0{OFFSET_DIGITS}d}")

    def _pieces(self, upload_id: str) -> list[tuple[int, str]]:
        """The upload's pieces as (offset, key), in order."""
        prefix = self.place.key("uploads", check_upload_id(upload_id), "")
        pieces = []
        with s3_errors(prefix):
            pages = self.client.get_paginator("list_objects_v2")
            for page in pages.paginate(Bucket=self.place.bucket, Prefix=prefix):
                for entry in page.get("Contents", []):
                    name = entry["Key"].removeprefix(prefix)
                    if name.isdigit():
                        pieces.append((int(name), entry["Key"]))
        return sorted(pieces)

    def _drop(self, upload_id: str, which: Callable[[int], bool]) -> None:
        for at, key in self._pieces(upload_id):
            if which(at):
                with s3_errors(key):
                    self.client.delete_object(Bucket=self.place.bucket, Key=key)
