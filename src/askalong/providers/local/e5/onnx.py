"""The encoder run by ONNX Runtime: the graphs of ``e5/graph.py``, built once and cached.

The embedder runs two graphs, a trunk (the first layers) and a head over its states
(``e5/trunk.py``), the bits of the whole graph; training runs the whole one. A graph is
built locally from the dequantised weights at first use (nothing is downloaded) and
saved next to the ``.npy`` weights under ``ASKALONG_HOME/cache/``, in the folder keyed
by package version and model-file hash (a tuned head's in a folder of its own, keyed by
its weights' digest), written to a temporary file and renamed into place. A read-only
or full disk only means the graph is rebuilt in memory each time.

One session serves every worker thread: each ``run`` uses one intra-op thread and
the workers run batches side by side, one per core, as the numpy path does, so no
thread waits at a barrier for a core another process has taken. Idle ORT threads
are told not to spin.

A session starts without prepacked weights (~15 CPU ms less to create, ~1-3 ms more a
run, the same output bits): a one-question process (``askalong ask``) runs a few hundred
tokens and ends. Once ``PREPACK_AFTER_TOKENS`` have run (ingestion, a server's tenth
question) the encoder opens a prepacked session for the rest, once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from askalong.errors import ProviderError
from askalong.files.atomic import write_atomically

if TYPE_CHECKING:
    import onnxruntime

    from askalong.providers.local.e5.weights import EncoderWeights, LayerWeights

log = logging.getLogger(__name__)

GRAPH_VERSION = "int8-row-4"  # part of the cache name: bump when graph.py's graph changes
WHOLE_GRAPH = f"encoder-{GRAPH_VERSION}.onnx"
# Tokens run before the prepacked session pays its ~65 ms: ~30 runs at ~2 ms more each.
PREPACK_AFTER_TOKENS = 4096


class GraphSession:
    """One graph's ONNX Runtime session: first without prepacked weights, then (after
    ``PREPACK_AFTER_TOKENS``) a prepacked one, once."""

    def __init__(self, source: Path | bytes) -> None:
        self._source: Path | bytes | None = source
        self._session = _session(source, prepacked=False)
        self._tokens = 0  # run by the session without prepacked weights
        self._lock = threading.Lock()

    def hidden(self, feed: dict[str, np.ndarray], tokens: int) -> np.ndarray:
        """The graph's ``hidden`` output for ``feed``, which holds ``tokens`` real tokens."""
        (hidden,) = self._session_for(tokens).run(["hidden"], feed)
        return np.asarray(hidden)

    def _session_for(self, tokens: int) -> onnxruntime.InferenceSession:
        """The session to run ``tokens`` on: the prepacked one once there was bulk."""
        with self._lock:
            if self._source is not None:
                self._tokens += tokens
                if self._tokens > PREPACK_AFTER_TOKENS:
                    self._session = _prepacked_or(self._session, self._source)
                    self._source = None  # a graph held as bytes is not needed again
            return self._session


class OnnxEncoder:
    """``mean_pooled`` as the numpy ``Encoder`` has it, run by one ONNX Runtime session of
    the whole graph (training's; the embedder runs a trunk and a head: ``OnnxTrunk``)."""

    def __init__(self, weights: EncoderWeights, folder: Path | None) -> None:
        self.weights = weights
        self.graph = GraphSession(graph_source(folder, WHOLE_GRAPH, lambda: _whole(weights)))

    def mean_pooled(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Mean of the final hidden states over each row's first ``lengths`` tokens."""
        feed = embedded_feed(self.weights, ids, lengths)
        hidden = self.graph.hidden(feed, int(lengths.sum()))
        return mean_over_tokens(hidden, lengths)


class OnnxTrunk:
    """The encoder's first ``depth`` layers (``graph.trunk_graph``): ids in, states out."""

    def __init__(self, weights: EncoderWeights, depth: int, folder: Path | None) -> None:
        self.weights = weights
        build = lambda: _trunk(weights, depth)  # noqa: E731
        self.graph = GraphSession(graph_source(folder, graph_file("trunk", depth), build))

    def __call__(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        feed = embedded_feed(self.weights, ids, lengths)
        return self.graph.hidden(feed, int(lengths.sum()))


class OnnxHead:
    """Layers over a trunk of ``depth`` (``graph.head_graph``): states in, final states
    out; ``layers`` are read only when the graph is not cached in ``folder``."""

    def __init__(
        self,
        weights: EncoderWeights,
        layers: Callable[[], tuple[LayerWeights, ...]],
        depth: int,
        folder: Path | None,
    ) -> None:
        build = lambda: _head(weights, layers())  # noqa: E731
        self.graph = GraphSession(graph_source(folder, graph_file("head", depth), build))

    def __call__(self, states: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        feed = {"states": states, "mask": token_mask(lengths, states.shape[1]).astype(np.int32)}
        return self.graph.hidden(feed, int(lengths.sum()))


def embedded_feed(
    weights: EncoderWeights, ids: np.ndarray, lengths: np.ndarray
) -> dict[str, np.ndarray]:
    """The graph's inputs: word + position + token-type rows, and the token mask."""
    width = ids.shape[1]
    embeddings = weights.word_rows(ids) + weights.positions[:width] + weights.token_type
    mask = token_mask(lengths, width)
    return {"embeddings": embeddings.astype(np.float32), "mask": mask.astype(np.int32)}


def token_mask(lengths: np.ndarray, width: int) -> np.ndarray:
    """``(batch, width)`` booleans, True over each row's first ``lengths`` tokens."""
    return np.arange(width)[None, :] < lengths[:, None]


def mean_over_tokens(hidden: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each row's mean state over its first ``lengths`` tokens."""
    mask = token_mask(lengths, hidden.shape[1]).astype(np.float32)
    pooled = np.einsum("bsh,bs->bh", hidden, mask)
    return pooled / lengths[:, None].astype(np.float32)


def _prepacked_or(
    session: onnxruntime.InferenceSession, source: Path | bytes
) -> onnxruntime.InferenceSession:
    """A prepacked session of ``source``, else ``session`` (the cached graph deleted since:
    the same vectors, only slower runs)."""
    if isinstance(source, Path) and not source.is_file():  # ORT's NoSuchFile is no OSError
        log.warning("keeping the session without prepacked weights (%s is gone)", source)
        return session
    try:
        return _session(source, prepacked=True)
    except ProviderError as exc:
        log.warning("keeping the session without prepacked weights (%s)", exc)
        return session


def graph_file(part: str, depth: int) -> str:
    """The cached graph's file name of a ``trunk`` or ``head`` cut after ``depth`` layers."""
    return f"{part}-{depth}-{GRAPH_VERSION}.onnx"


def _whole(weights: EncoderWeights) -> bytes:
    from askalong.providers.local.e5.graph import build_graph

    return build_graph(weights)


def _trunk(weights: EncoderWeights, depth: int) -> bytes:
    from askalong.providers.local.e5.graph import trunk_graph

    return trunk_graph(weights, depth)


def _head(weights: EncoderWeights, layers: tuple[LayerWeights, ...]) -> bytes:
    from askalong.providers.local.e5.graph import head_graph

    return head_graph(weights, layers)


def cached_graph(folder: Path, name: str) -> Path | None:
    """The graph file ``name`` cached in ``folder``, if it is there."""
    path = folder / name
    return path if path.is_file() else None


def graph_source(folder: Path | None, name: str, build: Callable[[], bytes]) -> Path | bytes:
    """The graph cached as ``folder / name``, built and written first if needed; the bytes
    if it cannot be saved.

    Running a cached graph needs only onnxruntime: ``onnx`` (and ``ml_dtypes``, seconds
    to import) load only to build one."""
    if folder is not None:
        cached = cached_graph(folder, name)
        if cached is not None:
            return cached
    graph = build()
    if folder is None:
        return graph
    path = folder / name
    try:
        write_atomically(path, graph)
    except OSError as exc:
        log.warning("cannot cache the ONNX graph at %s (%s); keeping it in memory", path, exc)
        return graph
    return path


def _session(source: Path | bytes, *, prepacked: bool = True) -> onnxruntime.InferenceSession:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # parallel batches come from our worker threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    # graph.py builds the graph already fused: ORT's optimisers change no output bit and no
    # run time of it (every level measured, 2026-12-06), only ~6 CPU ms of each start, and
    # an optimised copy cached on disk would load no faster than this unoptimised one.
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    options.log_severity_level = 3  # its warnings about unused initialisers are noise
    if not prepacked:
        options.add_session_config_entry("session.disable_prepacking", "1")
    model = str(source) if isinstance(source, Path) else source
    try:
        return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    except (RuntimeError, ValueError) as exc:  # ORT's errors derive from RuntimeError
        where = str(source) if isinstance(source, Path) else "onnxruntime"
        raise ProviderError(f"ONNX Runtime cannot load the encoder: {exc}", source=where) from exc
