"""Originals in S3 (``ASKALONG_FILES=s3://bucket/prefix``) against moto's S3 server over
real HTTP: keys come from the content hash, never the uploaded name; the worker reads a
queued document from the bucket; bytes are checked on the way in and on the way out; a
delete is undone when its transaction fails, and final when it commits."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from moto_server import MotoServer

from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.errors import ConfigError, InputError, StoreError
from askalong.files.s3 import S3OriginalFiles, S3Place
from askalong.ingest.inputs import Upload
from askalong.jobs.worker import Worker
from askalong.library import Library
from askalong.types import Access, Document
from conftest import S3_PREFIX as PREFIX

LOCAL = Access.local()
NAME = "../Q3 report; rm -rf ~.md"  # a name no key may be made of
TEXT = b"# Pumps\n\nThe relief valve opens at 8 bar.\n"
DIGEST = hashlib.sha256(TEXT).hexdigest()


def added(library: Library) -> Document:
    outcome = library.ingestor.add_upload(Upload(TEXT, NAME, NAME), LOCAL)
    assert outcome.document is not None
    return outcome.document


def original_key(digest: str = DIGEST) -> str:
    return f"{PREFIX}/originals/{digest[:2]}/{digest}"


def test_a_queued_document_is_kept_under_its_hash_and_read_by_the_worker(
    s3_settings: Settings, s3_bucket: str, moto_s3: MotoServer, tmp_path: Path
) -> None:
    path = tmp_path / "in.md"
    path.write_bytes(TEXT)
    added = CliRunner().invoke(main, ["add", "--queue", str(path)], catch_exceptions=False)
    assert added.exit_code == 0, added.output
    assert moto_s3.keys(s3_bucket) == [original_key()]
    assert not s3_settings.files_dir.exists()  # nothing kept under ASKALONG_HOME/files
    with Library(s3_settings) as library:
        assert Worker(library).run(threading.Event(), once=True) == 1
        (document,) = library.store.list_documents(LOCAL)
        assert [job.state for job in library.store.jobs()] == ["ready"]
        assert "8 bar" in " ".join(c.text for c in library.store.chunks(document.id))
        library.remove(document.id, LOCAL)
    assert moto_s3.keys(s3_bucket) == []  # the original and its set-aside copy both gone


def test_the_uploaded_name_never_becomes_a_key(
    s3_settings: Settings, s3_bucket: str, moto_s3: MotoServer
) -> None:
    with Library(s3_settings) as library:
        assert library.store.original_path(added(library)).read_bytes() == TEXT
    assert moto_s3.keys(s3_bucket) == [original_key()]


def test_an_original_damaged_in_the_bucket_is_refused_when_read(
    s3_settings: Settings, s3_bucket: str, moto_s3: MotoServer
) -> None:
    with Library(s3_settings) as library:
        document = added(library)
        cached = library.store.original_path(document)
        cached.unlink()  # the verified local copy is a cache; the bucket is the truth
        moto_s3.client().put_object(Bucket=s3_bucket, Key=original_key(), Body=b"other bytes")
        with pytest.raises(StoreError, match="does not match its hash"):
            library.store.original_path(document)
        assert not cached.exists()


def test_bytes_that_are_not_their_name_are_refused_before_any_write(
    s3_bucket: str, moto_s3: MotoServer, tmp_path: Path
) -> None:
    files = S3OriginalFiles(S3Place(s3_bucket, "p/"), tmp_path)
    with pytest.raises(InputError, match="does not match"):
        files.save(hashlib.sha256(b"else").hexdigest(), TEXT)
    with pytest.raises(InputError, match="64 lowercase hex"):
        files.save("../../escape", TEXT)
    assert moto_s3.keys(s3_bucket) == []


def test_a_delete_set_aside_comes_back_when_put_back_and_goes_when_discarded(
    s3_bucket: str, moto_s3: MotoServer, tmp_path: Path
) -> None:
    files = S3OriginalFiles(S3Place(s3_bucket, ""), tmp_path)
    files.save(DIGEST, TEXT)
    aside = files.set_aside(DIGEST)
    assert aside is not None and moto_s3.keys(s3_bucket) == [aside]
    files.put_back(aside)
    assert moto_s3.keys(s3_bucket) == [original_key(DIGEST).removeprefix(f"{PREFIX}/")]
    assert files.local_path(DIGEST).read_bytes() == TEXT
    aside = files.set_aside(DIGEST)
    assert aside is not None and not files.local_path(DIGEST).exists()
    files.discard(aside)
    assert moto_s3.keys(s3_bucket) == [] and files.set_aside(DIGEST) is None


def test_a_bad_files_setting_names_the_key_and_the_forms(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_FILES", "/srv/files")
    with pytest.raises(ConfigError, match=r"ASKALONG_FILES=.*s3://bucket/prefix"):
        Library(load_settings(home=settings.home))


def test_a_copy_that_cannot_be_kept_here_is_a_store_error(
    s3_bucket: str, moto_s3: MotoServer, tmp_path: Path
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go")
    files = S3OriginalFiles(S3Place(s3_bucket, ""), blocked / "cache")
    files.save(DIGEST, TEXT)
    with pytest.raises(StoreError, match="cannot keep a copy of the original"):
        files.local_path(DIGEST)
