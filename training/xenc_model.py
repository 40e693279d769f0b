"""The trained cross-encoder evaluated in numpy, for measuring it (issue 32 experiment).

The pair runs through the package's own float32 encoder (``e5/encoder.py``) with its
layers swapped for the trained ones: the word, position and LayerNorm embeddings stay the
bundled model's (frozen in training), so only the layers and the head are new weights
(2 layers: 3.5 M floats, 14 MB in float32, 3.5 MB in int8) and no vocabulary is pruned.
With ``int8`` the layers run as the package's ONNX int8 graph (``e5/onnx.py``).

    model = CrossModel.load(Path("/work/data/xenc/xenc-L2.npz"), Path("/work/data/xenc/cache"))
    model.scores("How long is the river?", ["It is 6,300 km long.", "It floods."])
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from xenc_data import E5Parts

from askalong.providers.local.e5.encoder import Encoder
from askalong.providers.local.e5.onnx import OnnxEncoder
from askalong.providers.local.e5.weights import LayerWeights


class BatchEncoder(Protocol):
    """The numpy or the ONNX int8 engine of the layers: mean-pooled hidden states."""

    def mean_pooled(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class CrossModel:
    parts: E5Parts
    encoder: BatchEncoder
    head_w: np.ndarray
    head_b: float
    layers: int

    @classmethod
    def load(cls, checkpoint: Path, cache_root: Path, int8: bool = False) -> CrossModel:
        """``int8``: the layers as the package's ONNX int8 graph (``e5/graph.py``), else
        float32 numpy."""
        parts = E5Parts.installed(cache_root)
        saved = np.load(checkpoint)
        count = len({n.split(".")[0] for n in saved.files if n.startswith("l") and "." in n})
        fields = [f.name for f in dataclasses.fields(LayerWeights)]
        layers = tuple(
            LayerWeights(**{n: np.ascontiguousarray(saved[f"l{k}.{n}"]) for n in fields})
            for k in range(count)
        )
        weights = dataclasses.replace(parts.weights, layers=layers)
        head_w = np.asarray(saved["head_w"], np.float32)
        encoder = OnnxEncoder(weights, None) if int8 else Encoder(weights)
        return cls(parts, encoder, head_w, float(saved["head_b"]), count)

    def scores(self, question: str, sentences: list[str]) -> np.ndarray:
        """One score per sentence (higher: more likely the one answering ``question``)."""
        if not sentences:
            return np.zeros(0, np.float32)
        rows = [self.parts.pair_ids(question, s) for s in sentences]
        lengths = np.array([len(r) for r in rows])
        ids = np.zeros((len(rows), int(lengths.max())), np.int64)
        for k, row in enumerate(rows):
            ids[k, : len(row)] = row
        pooled = self.encoder.mean_pooled(ids, lengths)
        return pooled @ self.head_w + np.float32(self.head_b)
