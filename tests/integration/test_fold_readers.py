"""The fold readers the heads' training weighs DEV sets with (``training/reader_layers.py``):
a set is read by the fold model not trained on it, a set every fold saw by the shipped
layers, and a fold's layers are its own, not the shipped ones."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from askalong.answer.extractive.reader_cosine import reader_cosines
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.providers.local.e5.model import FastE5Embedder
from askalong.providers.local.e5.reader import reader_layers

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "training"), str(ROOT / "benchmarks")]
from reader_layers import FoldEmbedders  # noqa: E402

QUESTION = "How long is the Yangtze?"
SENTENCES = ["长江全长约六千三百公里。", "The default value of work_mem is four megabytes."]


def _fold(path: Path, fit: list[str], noise: float) -> Path:
    """The shipped layers as a fold model's output (float32 arrays, its ``fit`` sets),
    ``noise`` added to every matrix so a changed fold reads differently."""
    rng = np.random.default_rng(7)
    arrays = {}
    for k, layer in enumerate(reader_layers().layers):
        for name in (f.name for f in dataclasses.fields(layer)):
            value = getattr(layer, name)
            arrays[f"l{k}.{name}"] = value + noise * rng.normal(size=value.shape).astype(np.float32)
    np.savez(path, fit=np.array(fit), scores=np.zeros(1), **arrays)
    return path


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CachedEmbedder]:
    plain = FastE5Embedder(tmp_path_factory.mktemp("folds"), engine="numpy")
    yield CachedEmbedder(plain)
    plain.close()


def test_each_set_is_read_by_the_fold_not_trained_on_it(
    shipped: CachedEmbedder, tmp_path: Path
) -> None:
    a = _fold(tmp_path / "a.npz", ["unseen", "unseen2"], 0.0)
    b = _fold(tmp_path / "b.npz", ["unseen3"], 0.05)
    folds = FoldEmbedders(shipped, [a, b])
    assert folds.of("unseen") is folds.of("unseen2") is folds.folds[1][1]
    assert folds.of("unseen3") is folds.folds[0][1]
    assert FoldEmbedders(shipped).of("unseen") is shipped  # no folds: the shipped layers
    assert FoldEmbedders(shipped, [a]).of("unseen") is shipped  # every fold saw it
    alike = reader_cosines(QUESTION, SENTENCES, folds.of("unseen3"))
    own = reader_cosines(QUESTION, SENTENCES, shipped)
    changed = reader_cosines(QUESTION, SENTENCES, folds.of("unseen"))
    assert np.allclose(alike, own, atol=0.02)  # the shipped layers, rounded alike
    assert not np.allclose(changed, own, atol=0.02)
    assert own[0] > own[1]
