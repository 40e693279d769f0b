"""The reader encoder's shipped layers (``e5/reader.py``): stored int8 per output column,
read back within that rounding, and put in place of the encoder's last layers only."""

from __future__ import annotations

import dataclasses
import io

import numpy as np

from askalong.providers.local.e5.reader import (
    SCALE_SUFFIX,
    quantised,
    reader_layers,
    upper_layers,
    with_upper,
)
from askalong.providers.local.e5.weights import EncoderWeights, LayerWeights

FIELDS = [f.name for f in dataclasses.fields(LayerWeights)]


def _layer(rng: np.random.Generator, hidden: int = 8, inner: int = 16) -> dict[str, np.ndarray]:
    shapes = {"wqkv": (hidden, 3 * hidden), "bqkv": (3 * hidden,), "wo": (hidden, hidden)}
    shapes |= {"bo": (hidden,), "ln1_w": (hidden,), "ln1_b": (hidden,), "wi": (hidden, inner)}
    shapes |= {"bi": (inner,), "wf": (inner, hidden), "bf": (hidden,), "ln2_w": (hidden,)}
    shapes |= {"ln2_b": (hidden,)}
    return {n: rng.normal(size=shapes[n]).astype(np.float32) for n in FIELDS}


def _image(arrays: dict[str, np.ndarray]) -> bytes:
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    return out.getvalue()


def test_matrices_are_stored_int8_per_column_and_read_back_within_the_rounding() -> None:
    rng = np.random.default_rng(3)
    layer = _layer(rng)
    stored = quantised({f"l0.{n}": a for n, a in layer.items()})
    assert stored["l0.wi"].dtype == np.int8 and stored["l0.wi" + SCALE_SUFFIX].shape == (16,)
    assert stored["l0.bi"].dtype == np.float32  # vectors stay exact
    upper = upper_layers(_image(stored))
    assert len(upper.layers) == 1 and upper.name.startswith("reader-")
    back = upper.layers[0]
    step = np.abs(layer["wi"]).max(axis=0) / 127.0  # one int8 step of each column
    assert np.all(np.abs(back.wi - layer["wi"]) <= step / 2 + 1e-6)
    assert np.array_equal(back.bi, layer["bi"])


def test_the_upper_layers_replace_the_last_ones_only() -> None:
    rng = np.random.default_rng(4)
    own = tuple(LayerWeights(**_layer(rng)) for _ in range(3))
    zeros = np.zeros(8, dtype=np.float32)
    weights = EncoderWeights(np.zeros((1, 1)), np.zeros((4, 8)), zeros, zeros, zeros, own, 2, 1e-12)
    upper = upper_layers(_image(quantised({f"l0.{n}": a for n, a in _layer(rng).items()})))
    tuned = with_upper(weights, upper)
    assert tuned.layers[:2] == own[:2] and tuned.layers[2] is upper.layers[0]
    assert weights.layers == own  # the plain model's weights untouched


def test_the_shipped_layers_are_four_e5_small_layers() -> None:
    upper = reader_layers()
    assert len(upper.layers) == 4
    assert all(ly.wqkv.shape == (384, 1152) and ly.wi.shape == (384, 1536) for ly in upper.layers)
    assert all(np.isfinite(getattr(ly, n)).all() for ly in upper.layers for n in FIELDS)
