"""The "reader" encoder: multilingual-e5-small with its top layers fine-tuned on readers'
questions (issue 32), for the learned answerer's ranking only.

Layers 1-8 are the bundled model's; the last four (``TUNED_LAYERS``) were trained as a bi-
encoder on the never-seen sets' groups (a question's candidate sentences, the ones holding a
gold phrase first: ``training/late_xenc_train.py --design bi``), so its question-sentence
cosine orders candidates the way readers' answers fall, where e5's own cosine orders them by
topic. Index vectors stay e5's own: only the answer's rank head reads this cosine.

The layers ship as ``reader-layers.npz`` (package data, written by
``training/reader_layers.py``): each matrix as int8 with one float32 scale per output
column, the rounding the ONNX graph applies anyway, vectors as float32.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from askalong.providers.local.e5.weights import EncoderWeights, LayerWeights

READER_FILE = "reader-layers.npz"
TUNED_LAYERS = 4  # the reader's own layers: the trunk below them is the plain model's
SCALE_SUFFIX = ".scale"  # beside an int8 matrix: its per-column float32 scales


@dataclass(frozen=True)
class UpperLayers:
    """Layers that replace the encoder's last ones, from their ``.npz`` image; ``name``
    (from the image's digest) keeps their ONNX graph apart from the plain model's in the
    cache. ``layers`` are dequantised at first use: a start whose graph is cached reads
    none (~45 CPU ms and 13.5 MB of float32 matrices less)."""

    name: str
    count: int  # how many layers
    image: bytes = field(repr=False)

    @functools.cached_property
    def layers(self) -> tuple[LayerWeights, ...]:
        with np.load(io.BytesIO(self.image)) as arrays:
            values = {k: arrays[k] for k in arrays.files}
        fields = [f.name for f in dataclasses.fields(LayerWeights)]
        return tuple(
            LayerWeights(**{n: _dequantised(values, f"l{k}.{n}") for n in fields})
            for k in range(self.count)
        )


@functools.cache
def reader_layers() -> UpperLayers:
    """The shipped fine-tuned layers (read once)."""
    data = resources.files("askalong.providers.local.e5").joinpath(READER_FILE).read_bytes()
    upper = upper_layers(data)
    if upper.count != TUNED_LAYERS:
        raise ValueError(f"{READER_FILE} holds {upper.count} layers, not {TUNED_LAYERS}")
    return upper


def upper_layers(data: bytes) -> UpperLayers:
    """``UpperLayers`` from an ``.npz`` image: ``l<k>.<field>`` arrays, int8 matrices with
    their ``.scale`` rows (the archive's names alone are read here)."""
    with np.load(io.BytesIO(data)) as arrays:
        count = len({k.split(".")[0] for k in arrays.files if not k.endswith(SCALE_SUFFIX)})
    digest = hashlib.blake2b(data, digest_size=8).hexdigest()
    return UpperLayers(f"reader-{digest}", count, data)


def _dequantised(values: dict[str, np.ndarray], key: str) -> np.ndarray:
    array = values[key]
    scale = values.get(key + SCALE_SUFFIX)
    if scale is not None:
        array = array.astype(np.float32) * scale[None, :]
    return np.ascontiguousarray(array, np.float32)


def quantised(layers: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``l<k>.<field>`` float arrays as stored: matrices int8 per output column."""
    out = {}
    for key, array in layers.items():
        if array.ndim == 2:
            scale = np.maximum(np.abs(array).max(axis=0), 1e-12) / 127.0
            out[key] = np.round(array / scale[None, :]).astype(np.int8)
            out[key + SCALE_SUFFIX] = scale.astype(np.float32)
        else:
            out[key] = np.asarray(array, np.float32)
    return out


def with_upper(weights: EncoderWeights, upper: UpperLayers) -> EncoderWeights:
    """``weights`` with their last layers replaced by ``upper``'s."""
    keep = len(weights.layers) - len(upper.layers)
    return dataclasses.replace(weights, layers=weights.layers[:keep] + upper.layers)
