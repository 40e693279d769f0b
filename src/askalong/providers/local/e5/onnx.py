"""The encoder run by ONNX Runtime: the graph of ``e5/graph.py``, built once and cached.

The graph is built locally from the dequantised weights at first use (nothing is
downloaded) and saved next to the ``.npy`` weights under ``ASKALONG_HOME/cache/``,
in the folder keyed by package version and model-file hash, written to a
temporary file and renamed into place. A read-only or full disk only means the
graph is rebuilt in memory each time.

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
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from askalong.errors import ProviderError
from askalong.files.atomic import write_atomically

if TYPE_CHECKING:
    import onnxruntime

    from askalong.providers.local.e5.weights import EncoderWeights

log = logging.getLogger(__name__)

GRAPH_VERSION = "int8-row-4"  # part of the cache name: bump when graph.py's graph changes
# Tokens run before the prepacked session pays its ~65 ms: ~30 runs at ~2 ms more each.
PREPACK_AFTER_TOKENS = 4096


class OnnxEncoder:
    """``mean_pooled`` as the numpy ``Encoder`` has it, run by an ONNX Runtime session."""

    def __init__(self, weights: EncoderWeights, folder: Path | None) -> None:
        self.weights = weights
        self._source: Path | bytes | None = graph_source(weights, folder)
        self._session = _session(self._source, prepacked=False)
        self._tokens = 0  # run by the session without prepacked weights
        self._lock = threading.Lock()

    def mean_pooled(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Mean of the final hidden states over each row's first ``lengths`` tokens."""
        w = self.weights
        width = ids.shape[1]
        mask = np.arange(width)[None, :] < lengths[:, None]
        embeddings = w.word_rows(ids) + w.positions[:width] + w.token_type
        feed = {"embeddings": embeddings.astype(np.float32), "mask": mask.astype(np.int32)}
        (hidden,) = self._session_for(int(lengths.sum())).run(["hidden"], feed)
        pooled = np.einsum("bsh,bs->bh", hidden, mask.astype(np.float32))
        return pooled / lengths[:, None].astype(np.float32)

    def _session_for(self, tokens: int) -> onnxruntime.InferenceSession:
        """The session to run ``tokens`` on: the prepacked one once there was bulk."""
        with self._lock:
            if self._source is not None:
                self._tokens += tokens
                if self._tokens > PREPACK_AFTER_TOKENS:
                    self._session = _prepacked_or(self._session, self._source)
                    self._source = None  # a graph held as bytes is not needed again
            return self._session


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


def cached_graph(folder: Path) -> Path | None:
    """The graph file cached in ``folder``, if one is there."""
    path = folder / f"encoder-{GRAPH_VERSION}.onnx"
    return path if path.is_file() else None


def graph_source(weights: EncoderWeights, folder: Path | None) -> Path | bytes:
    """The cached graph file, writing it first if needed; the bytes if it cannot be saved.

    Running a cached graph needs only onnxruntime: ``onnx`` (and ``ml_dtypes``, seconds
    to import) load only to build one."""
    if folder is not None:
        cached = cached_graph(folder)
        if cached is not None:
            return cached
        path = folder / f"encoder-{GRAPH_VERSION}.onnx"
    from askalong.providers.local.e5.graph import build_graph

    graph = build_graph(weights)
    if folder is None:
        return graph
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
