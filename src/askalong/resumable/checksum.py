"""Digests a client sends with a piece of an upload (``Upload-Checksum: sha256 <base64>``)
or for the whole file (metadata ``sha256``, hex), checked before any byte is kept."""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from askalong.errors import ChecksumMismatch, InputError

# sha1 is the one the tus checksum extension requires every server to take.
ALGORITHMS = ("sha1", "sha256", "md5")


@dataclass(frozen=True)
class Checksum:
    algorithm: str
    digest: bytes

    @classmethod
    def parse(cls, header: str) -> Checksum:
        """``<algorithm> <base64 digest>``; an algorithm we do not take is a bad request."""
        algorithm, _, encoded = header.strip().partition(" ")
        algorithm = algorithm.lower()
        if algorithm not in ALGORITHMS:
            raise InputError(
                f"checksum algorithm {algorithm!r} is not supported; use one of "
                + ", ".join(ALGORITHMS),
                source="Upload-Checksum",
            )
        try:
            digest = base64.b64decode(encoded.strip(), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise InputError("the checksum is not base64", source="Upload-Checksum") from exc
        if len(digest) != hashlib.new(algorithm).digest_size:
            raise InputError(
                f"a {algorithm} digest has {hashlib.new(algorithm).digest_size} bytes",
                source="Upload-Checksum",
            )
        return cls(algorithm, digest)

    def hasher(self) -> hashlib._Hash:
        return hashlib.new(self.algorithm)

    def check(self, hasher: hashlib._Hash, source: str) -> None:
        if hasher.digest() != self.digest:
            raise ChecksumMismatch(
                f"the {self.algorithm} of the bytes received is not the one sent", source=source
            )


def check_whole_file(expected_hex: str, data: bytes, source: str) -> None:
    """The completed file against the ``sha256`` its creator declared (if any)."""
    if expected_hex and hashlib.sha256(data).hexdigest() != expected_hex:
        raise ChecksumMismatch(
            "the sha256 of the whole upload is not the one declared when it was created",
            source=source,
        )
