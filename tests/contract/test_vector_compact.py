"""Compaction of the vector index: dead rows go (on its own past the threshold, or when
asked), searches give the same answers before and after, other instances follow the
switch, and what a crashed compaction leaves is ignored and cleaned."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from askalong.index.vector_files import MATRIX_FILE
from askalong.index.vectors import COMPACT_MIN_DEAD, VectorIndex

DIM = 8


def vectors(seed: int, count: int) -> npt.NDArray[np.float32]:
    return np.random.default_rng(seed).standard_normal((count, DIM)).astype(np.float32)


def add(index: VectorIndex, document_id: str, matrix: npt.NDArray[np.float32]) -> None:
    chunk_ids = [f"{document_id}:c{n}" for n in range(len(matrix))]
    index.add(
        document_id, chunk_ids, matrix, [f"key-{document_id}-{n}" for n in range(len(matrix))]
    )


def top(index: VectorIndex, query: npt.NDArray[np.float32]) -> list[tuple[str, float]]:
    return [
        (h.chunk_id, round(h.score, 5))
        for h in index.search(query, allowed_document_ids=None, limit=40)
    ]


def test_compact_keeps_the_answers_and_drops_dead_rows(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path, DIM)
    for n in range(6):
        add(index, f"d{n}", vectors(n, 10))
    add(index, "d2", vectors(99, 4))  # re-added: its 10 old rows die
    index.delete("d4")
    query = vectors(7, 1)[0]
    before = top(index, query)
    assert (index.stats().rows, index.stats().dead) == (64, 20)
    other = VectorIndex(tmp_path, DIM)  # another process with the folder open
    assert index.compact() == 20
    stats = index.stats()
    assert (stats.rows, stats.live, stats.dead, stats.documents) == (44, 44, 0, 5)
    assert stats.matrix_file != MATRIX_FILE and not (tmp_path / MATRIX_FILE).exists()
    assert (tmp_path / stats.matrix_file).stat().st_size == 44 * DIM * 4
    assert top(index, query) == before
    assert top(other, query) == before  # it sees the switch
    add(other, "late", vectors(50, 2))
    assert top(VectorIndex(tmp_path, DIM), vectors(50, 2)[1])[0] == ("late:c1", 1.0)
    assert index.live_keys("d2") == {f"d2:c{n}": f"key-d2-{n}" for n in range(4)}
    assert index.compact() == 0


def test_compaction_runs_on_its_own_past_the_threshold(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path, DIM)
    rows = 0
    for n in range(6):  # re-adding one document: every add but the last leaves dead rows
        add(index, "big", vectors(n, 300))
        rows += 300
    stats = index.stats()
    assert COMPACT_MIN_DEAD < 5 * 300
    assert stats.dead < COMPACT_MIN_DEAD and stats.rows < rows  # compacted along the way
    assert index.live_keys("big") == {f"big:c{n}": f"key-big-{n}" for n in range(300)}


def test_a_crashed_compaction_leaves_the_index_as_it_was(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path, DIM)
    add(index, "a", vectors(1, 5))
    add(index, "a", vectors(2, 5))
    query = vectors(3, 1)[0]
    before = top(index, query)
    index.close()
    # A compaction killed before its commit: the new matrix (whole or half) and its
    # temporary file exist, the row table still names the old matrix.
    (tmp_path / "vectors-1.f32").write_bytes(vectors(4, 3).tobytes())
    (tmp_path / ".tmp-abc").write_bytes(b"half")
    reopened = VectorIndex(tmp_path, DIM)
    assert top(reopened, query) == before
    assert reopened.stats().stray_files == (".tmp-abc", "vectors-1.f32")
    assert reopened.compact() == 5
    assert reopened.stats().stray_files == ()
    assert top(reopened, query) == before


def test_keys_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="content keys"):
        VectorIndex(tmp_path, DIM).add("x", ["x:0"], vectors(1, 1), ["k1", "k2"])


def test_an_index_from_before_content_keys_opens_with_empty_keys(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "rows.sqlite3") as db:  # the schema before keys
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE rows (row INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL,"
            " document_id TEXT NOT NULL, alive INTEGER NOT NULL DEFAULT 1);"
            f"INSERT INTO meta VALUES ('dimension', '{DIM}');"
            "INSERT INTO rows VALUES (0, 'old:c0', 'old', 1);"
        )
    row = vectors(1, 1)
    (tmp_path / MATRIX_FILE).write_bytes((row / np.linalg.norm(row)).tobytes())
    index = VectorIndex(tmp_path, DIM)
    assert index.live_keys("old") == {"old:c0": ""}  # matches no text: never reused
    assert index.vectors_for([""]) == {}
    assert top(index, vectors(1, 1)[0])[0] == ("old:c0", 1.0)
