"""Moving a home: its originals into the target's file store, then its rows into the
target's database, then the counts of both sides compared (the vectors follow once the
target's search routes can be opened over the rows: ``moving/vectors``).

Originals go first, so no copied row ever names an original the target lacks. Each step
skips what an earlier run already copied, so after a crash the same command finishes the
move, and after a finished move it changes nothing and reports the same counts.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from askalong.files.base import OriginalStore
from askalong.moving.rows import Progress, RowTarget, copy_table, open_source, source_tables
from askalong.moving.verify import Counted, MoveReport

ORIGINALS = "originals"


def move_home(
    database: Path,
    files: OriginalStore,
    target: RowTarget,
    target_files: OriginalStore | None,
    *,
    batch: int = 500,
    progress: Progress | None = None,
) -> MoveReport:
    """Copy the home's store (``database`` and its ``files``) into ``target`` and, when
    given, its originals into ``target_files`` (None: they stay where they are)."""
    source = open_source(database)
    try:
        counts = []
        if target_files is not None:
            counts.append(copy_originals(source, files, target_files, progress))
        for table in source_tables(source):
            copy_table(source, target, table, batch=batch, progress=progress)
        target.finish()
        counts += [Counted(t.name, t.rows, target.count(t.name)) for t in source_tables(source)]
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
