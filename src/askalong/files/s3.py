"""Original files in S3-compatible object storage (``ASKALONG_FILES=s3://bucket/prefix``).

Keys are made from the content hash only (``prefix/originals/ab/ab12…``), never from a
name a user gave. A write is checked as the local folder checks it (the bytes' SHA-256
must be the name) and sends that digest, so the store refuses bytes damaged on the way;
a read is checked again against the name before any caller sees it (an object replaced or
damaged in the bucket is an error, never a silent wrong document). Parsers and responses
read files, so ``local_path`` keeps a verified copy in a cache folder on this machine: a
cache, safe to empty at any time.

The endpoint and credentials are boto3's own (``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, ``AWS_DEFAULT_REGION`` or a profile), so MinIO, Ceph or any
other S3-compatible store works as AWS does.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from askalong.errors import ConfigError, DiskFull, StoreError
from askalong.files.atomic import write_atomically
from askalong.files.base import Aside
from askalong.files.disk import is_disk_full
from askalong.files.local import check_content_hash, checked_hash

SERVER_INSTALL = "pip install 'askalong[server]'"


@dataclass(frozen=True)
class S3Place:
    """A bucket and the key prefix everything of this install goes under ("" or "a/b/")."""

    bucket: str
    prefix: str

    def key(self, *parts: str) -> str:
        return self.prefix + "/".join(parts)


def s3_place(url: str) -> S3Place:
    """The place ``ASKALONG_FILES=s3://bucket/prefix`` names; ``ConfigError`` otherwise."""
    parts = urlsplit(url)
    if parts.scheme != "s3" or not parts.netloc or parts.query or parts.fragment:
        raise ConfigError(
            f"ASKALONG_FILES={url!r}: must be empty (files under ASKALONG_HOME)"
            " or s3://bucket/prefix"
        )
    prefix = parts.path.strip("/")
    return S3Place(parts.netloc, f"{prefix}/" if prefix else "")


def s3_client() -> Any:
    """A boto3 S3 client configured from the environment, or a ``ConfigError`` naming the
    extra to install."""
    try:
        import boto3
    except ImportError as exc:
        raise ConfigError(f"ASKALONG_FILES=s3://… needs boto3: {SERVER_INSTALL}") from exc
    return boto3.client("s3")


def sha256_base64(data: bytes) -> str:
    """The digest as S3's ``ChecksumSHA256`` takes it."""
    return base64.b64encode(hashlib.sha256(data).digest()).decode()


@contextmanager
def s3_errors(key: str) -> Iterator[None]:
    """A failed request to the object store as a ``StoreError`` naming the key."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        yield
    except (BotoCoreError, ClientError) as exc:
        raise StoreError(f"object storage: {exc}", source=key) from exc


def is_missing(exc: BaseException) -> bool:
    """Whether a request failed because the object is not there."""
    response = getattr(exc.__cause__ or exc, "response", None) or {}
    return response.get("Error", {}).get("Code") in {"404", "NoSuchKey", "NotFound"}


class S3OriginalFiles:
    """``OriginalStore`` over a bucket; ``cache`` the folder of verified local copies."""

    def __init__(self, place: S3Place, cache: Path, client: Any = None) -> None:
        self.place, self.cache = place, cache
        self.client = client or s3_client()

    def key(self, content_hash: str) -> str:
        return self.place.key("originals", checked_hash(content_hash)[:2], content_hash)

    def save(self, content_hash: str, data: bytes) -> None:
        check_content_hash(content_hash, data)
        key = self.key(content_hash)
        if self._exists(key):
            return
        with s3_errors(key):
            self.client.put_object(
                Bucket=self.place.bucket, Key=key, Body=data, ChecksumSHA256=sha256_base64(data)
            )

    def has(self, content_hash: str) -> bool:
        return self._exists(self.key(content_hash))

    def read(self, content_hash: str) -> bytes:
        """The original's bytes, checked against its hash; ``StoreError`` when they differ."""
        key = self.key(content_hash)
        with s3_errors(key):
            data: bytes = self.client.get_object(Bucket=self.place.bucket, Key=key)["Body"].read()
        if hashlib.sha256(data).hexdigest() != content_hash:
            raise StoreError("the stored original does not match its hash", source=key)
        return data

    def local_path(self, content_hash: str) -> Path:
        target = self.cache / checked_hash(content_hash)[:2] / content_hash
        if target.is_file():
            return target
        try:
            data = self.read(content_hash)
        except StoreError as exc:
            if is_missing(exc):
                return target  # no such original: a path that does not exist, as locally
            raise
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data, prefix=".tmp-")
        except OSError as exc:
            if is_disk_full(exc):
                raise DiskFull.of(str(target)) from exc
            raise StoreError(
                f"cannot keep a copy of the original: {exc}", source=str(target)
            ) from exc
        return target

    def remove(self, content_hash: str) -> None:
        self._forget_copy(content_hash)
        with contextlib.suppress(StoreError), s3_errors(self.key(content_hash)):
            self.client.delete_object(Bucket=self.place.bucket, Key=self.key(content_hash))

    def set_aside(self, content_hash: str) -> Aside | None:
        """Copy the object to a key of its own and delete it; ``None`` when it is absent."""
        key = self.key(content_hash)
        aside = self.place.key("deleting", f"{content_hash}-{uuid.uuid4().hex}")
        try:
            self._move(key, aside)
        except StoreError as exc:
            if is_missing(exc):
                return None
            raise
        self._forget_copy(content_hash)
        return aside

    def put_back(self, aside: Aside) -> None:
        content_hash = aside.rsplit("/", 1)[-1].split("-", 1)[0]
        with contextlib.suppress(StoreError):
            self._move(aside, self.key(content_hash))

    def discard(self, aside: Aside) -> None:
        with contextlib.suppress(StoreError), s3_errors(aside):
            self.client.delete_object(Bucket=self.place.bucket, Key=aside)

    def _move(self, source: str, target: str) -> None:
        bucket = self.place.bucket
        with s3_errors(source):
            self.client.copy_object(
                Bucket=bucket, Key=target, CopySource={"Bucket": bucket, "Key": source}
            )
            self.client.delete_object(Bucket=bucket, Key=source)

    def _exists(self, key: str) -> bool:
        try:
            with s3_errors(key):
                self.client.head_object(Bucket=self.place.bucket, Key=key)
        except StoreError as exc:
            if is_missing(exc):
                return False
            raise
        return True

    def _forget_copy(self, content_hash: str) -> None:
        with contextlib.suppress(OSError):
            (self.cache / content_hash[:2] / content_hash).unlink(missing_ok=True)
