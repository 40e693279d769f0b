"""One writer of the keyword index at a time across real processes (``index/writer_lock``).

Three OS processes add documents to one tantivy index at once, one commit per document.
Their writers wait not at all for tantivy's own writer lock (``lock_wait=0``), so the file
lock alone keeps them apart: with ``exclusive`` made a no-op this test fails, the first
overlap raising ``LockBusy`` in a writer (a ``StoreError``) whose later documents are then
never indexed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from askalong.index.keyword import KeywordIndex
from askalong.types import Access

WRITERS, DOCUMENTS = 3, 15

# Each child opens the index, says it is ready, waits for the start signal (so all write
# at once, not one after another's start-up), then adds its documents one commit each.
CHILD = """
import sys, time
from pathlib import Path
from askalong.index.keyword import KeywordIndex
from askalong.types import BlockSpan, Chunk, Document

folder, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
index = KeywordIndex(folder / "keyword", lock_wait=0.0)
(folder / f"ready-{name}").touch()
while not (folder / "go").exists():
    time.sleep(0.005)
for n in range(count):
    doc = Document(
        id=f"{name}-{n}", content_hash="0" * 64, title=f"{name} {n}", source="s",
        format="text", language="en", page_count=1, size_bytes=1,
        created="2026-01-01T00:00:00+00:00", owner="local", visibility="private",
    )
    text = f"marker{name}x{n} shared words"
    chunk = Chunk(f"{doc.id}:c0", doc.id, 0, (BlockSpan("b0", 0, len(text)),), text)
    index.add(doc, [chunk])
"""


def environment() -> dict[str, str]:
    src = str(Path(__file__).resolve().parents[2] / "src")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}


def start_writers(folder: Path) -> list[subprocess.Popen[str]]:
    names = [f"w{i}" for i in range(WRITERS)]
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(folder), name, str(DOCUMENTS)],
            env=environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in names
    ]
    deadline = time.monotonic() + 120  # importing tantivy under load takes a while
    while not all((folder / f"ready-{name}").exists() for name in names):
        assert time.monotonic() < deadline, "the writers never got ready"
        assert all(w.poll() is None for w in writers), [w.communicate() for w in writers]
        time.sleep(0.01)
    (folder / "go").touch()
    return writers


def test_writers_in_three_processes_lose_no_document(tmp_path: Path) -> None:
    writers = start_writers(tmp_path)
    results = [w.communicate(timeout=300) for w in writers]
    errors = [err for (_, err), w in zip(results, writers, strict=True) if w.returncode != 0]
    assert not errors, errors[0]
    assert not any("LockBusy" in err for _, err in results)
    index = KeywordIndex(tmp_path / "keyword")
    expected = {f"w{i}-{n}" for i in range(WRITERS) for n in range(DOCUMENTS)}
    assert index.document_ids() == expected
    for document in sorted(expected):  # each searchable by its own word
        name, n = document.split("-")
        hits = index.search(f"marker{name}x{n}", Access.local())
        assert [hit.document_id for hit in hits] == [document]
