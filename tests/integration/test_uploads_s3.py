"""Resumable uploads whose pieces are kept in S3 (``ASKALONG_FILES=s3://…``), against moto's
S3 server: an upload begun through one app server resumes through another, a retried
piece is kept once, and a piece damaged in the bucket is refused when the file is read."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from api_client import api_client
from moto_server import MotoServer
from test_resumable_uploads import create, offset, patch

from askalong.config import Settings
from askalong.errors import InputError, StoreError
from askalong.files.s3 import S3Place
from askalong.resumable.area import UploadArea
from askalong.resumable.s3area import S3UploadArea
from askalong.server.app import create_app

TEXT = ("Pieces of a resumable upload, kept in a bucket. " * 300).encode()
UPLOAD_ID = "0123456789abcdef0123456789abcdef"


def piece(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / f"piece-{hashlib.sha256(data).hexdigest()[:8]}"
    path.write_bytes(data)
    return path


def test_an_upload_begun_through_one_server_resumes_through_another(
    s3_settings: Settings, s3_bucket: str, moto_s3: MotoServer
) -> None:
    half = len(TEXT) // 2
    with api_client(s3_settings, create_app(s3_settings)) as first:
        url = create(first, TEXT, "manual.txt")
        assert patch(first, url, 0, TEXT[:half]).status_code == 204
    upload_id = url.rsplit("/", 1)[1]
    assert moto_s3.keys(s3_bucket) == [f"files/uploads/{upload_id}/{0:020d}"]
    with api_client(s3_settings, create_app(s3_settings)) as second:
        assert offset(second, url) == half
        assert patch(second, url, half, TEXT[half:]).status_code == 204
        document_id = second.get(url).json()["document_id"]
        assert second.get(f"/api/documents/{document_id}/original").content == TEXT
    digest = hashlib.sha256(TEXT).hexdigest()
    assert moto_s3.keys(s3_bucket) == [f"files/originals/{digest[:2]}/{digest}"]  # pieces gone


def test_a_retried_piece_replaces_what_was_kept_past_its_offset(
    s3_bucket: str, tmp_path: Path
) -> None:
    area = S3UploadArea(S3Place(s3_bucket, ""), UploadArea(tmp_path / "uploads"))
    area.create(UPLOAD_ID)
    area.append(UPLOAD_ID, 0, piece(tmp_path, b"hello "))
    area.append(UPLOAD_ID, 6, piece(tmp_path, b"garbage from a crash"))
    area.append(UPLOAD_ID, 6, piece(tmp_path, b"world"))
    assert area.read(UPLOAD_ID, 11) == b"hello world"
    with pytest.raises(StoreError, match="holds 11 of 12 bytes"):
        area.read(UPLOAD_ID, 12)
    area.remove(UPLOAD_ID)
    with pytest.raises(StoreError, match="holds 0 of 11"):
        area.read(UPLOAD_ID, 11)


def test_a_piece_damaged_in_the_bucket_is_refused_when_read(
    s3_bucket: str, moto_s3: MotoServer, tmp_path: Path
) -> None:
    area = S3UploadArea(S3Place(s3_bucket, ""), UploadArea(tmp_path / "uploads"))
    area.append(UPLOAD_ID, 0, piece(tmp_path, b"hello world"))
    (key,) = moto_s3.keys(s3_bucket)
    kept = moto_s3.client().head_object(Bucket=s3_bucket, Key=key)["Metadata"]
    moto_s3.client().put_object(Bucket=s3_bucket, Key=key, Body=b"HELLO WORLD", Metadata=kept)
    with pytest.raises(StoreError, match="does not match its digest"):
        area.read(UPLOAD_ID, 11)


def test_an_upload_id_that_is_not_the_servers_never_becomes_a_key(
    s3_bucket: str, tmp_path: Path
) -> None:
    area = S3UploadArea(S3Place(s3_bucket, ""), UploadArea(tmp_path / "uploads"))
    with pytest.raises(InputError, match="32 lowercase hex"):
        area.append("../../originals/ab", 0, piece(tmp_path, b"x"))
