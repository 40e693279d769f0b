"""Moving a home: its originals into the target's file store, then its rows into the
target's database, then its vectors into the target's vector route, then the counts of
both sides compared.

Originals go first, so no copied row ever names an original the target lacks. Each step
skips what an earlier run already copied, so after a crash the same command finishes the
move, and after a finished move it changes nothing and reports the same counts.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from askalong.files.base import OriginalStore
from askalong.index.base import VectorRoute
from askalong.index.vectors import VectorIndex
from askalong.moving.rows import Progress, RowTarget, copy_table, open_source, source_tables
from askalong.moving.vectors import copy_vectors
from askalong.moving.verify import Counted, MoveReport

ORIGINALS = "originals"


def move_home(
    database: Path,
    files: OriginalStore,
    target: RowTarget,
    target_files: OriginalStore | None,
    *,
    vectors: tuple[VectorIndex, VectorRoute] | None = None,
    batch: int = 500,
    progress: Progress | None = None,
) -> MoveReport:
    """Copy the home's store (``database`` and its ``files``) into ``target``; when given,
    its originals into ``target_files`` (None: they stay where they are) and the vectors
    of ``vectors``' index into its route (after the rows: a route may refer to them)."""
    source = open_source(database)
    try:
        counts = []
        if target_files is not None:
            counts.append(copy_originals(source, files, target_files, progress))
        for table in source_tables(source):
            copy_table(source, target, table, batch=batch, progress=progress)
        target.finish()
        counts += [Counted(t.name, t.rows, target.count(t.name)) for t in source_tables(source)]
        if vectors is not None:
            counts.append(copy_vectors(*vectors, progress))
        return MoveReport(tuple(counts))
    finally:
        source.close()


def copy_originals(
    source: sqlite3.Connection,
    files: OriginalStore,
    target: OriginalStore,
    progress: Progress | None = None,
) -> Counted:
    """Every original a document uses, saved in ``target`` unless it is there already
    (saving checks the bytes against their hash on the way)."""
    hashes = [row[0] for row in source.execute("SELECT DISTINCT content_hash FROM documents")]
    told: Callable[[int], None] = (
        (lambda done: progress(ORIGINALS, done, len(hashes))) if progress else (lambda done: None)
    )
    for done, content_hash in enumerate(hashes, 1):
        if not target.has(content_hash):
            target.save(content_hash, files.local_path(content_hash).read_bytes())
        told(done)
    return Counted(ORIGINALS, len(hashes), sum(target.has(h) for h in hashes))
