"""The files of vector folders: the matrix file's name (a new one per compaction), writing
a matrix whole, the leftovers a crash may leave, and the row tables of every folder read
and updated without opening an index (which needs the embedder's dimension)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from askalong.errors import StoreError
from askalong.files.atomic import write_atomically
from askalong.index.vector_rows import VectorRows

MATRIX_FILE = "vectors.f32"
ROWS_FILE = "rows.sqlite3"
# The row table beside a matrix: one row per vector, its chunk, document, alive flag and
# content key; ``meta`` holds the dimension and the current matrix file's name.
ROWS_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
    row INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL,
    document_id TEXT NOT NULL,
    alive INTEGER NOT NULL DEFAULT 1,
    content_key TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS rows_document ON rows (document_id);
"""


def next_matrix_name(current: str) -> str:
    """``vectors.f32`` -> ``vectors-1.f32`` -> ``vectors-2.f32``..."""
    stem = current.removesuffix(".f32")
    number = int(stem.rsplit("-", 1)[1]) if "-" in stem else 0
    return f"vectors-{number + 1}.f32"


def write_whole(target: Path, matrix: npt.NDArray[np.float32]) -> None:
    """Write ``matrix`` to ``target`` so that ``target`` is either absent or complete."""
    write_atomically(target, matrix.tobytes(), prefix=".tmp-", durable=True)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself must survive a power cut
    finally:
        os.close(folder)


def stray_files(folder: Path, current: str) -> list[Path]:
    """Matrix files other than ``current`` and temporaries: what a crashed (or finished,
    not yet cleaned) compaction left."""
    return [
        path
        for path in sorted(folder.iterdir())
        if path.name != current and (path.suffix == ".f32" or path.name.startswith(".tmp-"))
    ]


@dataclass(frozen=True)
class VectorStats:
    rows: int
    live: int
    dead: int
    documents: int
    matrix_file: str
    stray_files: tuple[str, ...]  # matrix files and temporaries no row table refers to


def vector_stats(rows: VectorRows, folder: Path) -> VectorStats:
    """What a vector folder holds: its rows as committed and the files no row table uses."""
    strays = tuple(sorted(p.name for p in stray_files(folder, rows.matrix_file)))
    return VectorStats(
        rows=rows.count,
        live=int(rows.live.size),
        dead=rows.dead,
        documents=len(rows.document_ids()),
        matrix_file=rows.matrix_file,
        stray_files=strays,
    )


# Without the embedder (a model takes seconds to load), a library still keeps its vectors
# in step with the store: every vector folder's row table is read and written directly.


def rows_files(root: Path) -> list[Path]:
    """The row tables of every vector folder under ``root`` (one per embedder)."""
    return sorted(root.glob(f"*/{ROWS_FILE}")) if root.is_dir() else []


def live_documents(root: Path) -> set[str]:
    """The documents with a live vector in any folder under ``root``."""
    found: set[str] = set()
    for path in rows_files(root):
        with _connect(path) as db:
            found |= {row[0] for row in db.execute(_LIVE_DOCUMENTS)}
    return found


def forget(root: Path, document_ids: Collection[str]) -> None:
    """Mark every vector of ``document_ids`` dead, in every folder under ``root``."""
    if not document_ids:
        return
    for path in rows_files(root):
        with _connect(path) as db:
            db.executemany(
                "UPDATE rows SET alive = 0 WHERE document_id = ? AND alive = 1",
                [(document_id,) for document_id in document_ids],
            )


_LIVE_DOCUMENTS = "SELECT DISTINCT document_id FROM rows WHERE alive = 1"


@contextmanager
def _connect(path: Path) -> Iterator[sqlite3.Connection]:
    try:
        db = sqlite3.connect(path, timeout=30)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the vector rows: {exc}", source=str(path)) from exc
    try:
        with db:  # one transaction, committed on leaving
            yield db
    except sqlite3.Error as exc:
        raise StoreError(f"vector rows update failed: {exc}", source=str(path)) from exc
    finally:
        db.close()
