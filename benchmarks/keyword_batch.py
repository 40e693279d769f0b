"""The keyword index of the PostgreSQL manual written three ways in one run (issue 28): a
commit per document (what ``add`` did before batches), the batched writes ``add`` and the
worker use now (``index/keyword_batch.py``), and raw tantivy with one writer and one
commit (the floor). The pages are parsed and chunked first (not measured); each arm then
indexes the same 1,174 documents into a fresh folder. CPU seconds of this process, bytes
written to disk (``/proc/self/io`` write_bytes) and the final index size; the arms run in
turn, ``--repeat`` times, and the median is reported.

``--add`` also times the whole ``askalong add --no-embed FOLDER`` (parse included) as a
child process for each ``--tree`` given (``--tree old=/path/to/old/src``), store writes
included in its disk figure.

    python benchmarks/keyword_batch.py [--docs 1174] [--repeat 1] [--add --tree new=src]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from _table import markdown_table, write_results
from askalong.config import load_settings
from askalong.index.keyword import KeywordIndex
from askalong.index.keyword_schema import build_schema, chunk_entry
from askalong.ingest.pipeline import Ingestor
from askalong.store.backends import open_store
from askalong.types import Access, Chunk, Document
from evaldata import EVALDATA

MANUAL = EVALDATA / "manuals" / "postgresql-15-html"
ROOT = Path(__file__).resolve().parents[1]
Entries = list[tuple[Document, Sequence[Chunk]]]
# A child that adds the folder and prints its own CPU and disk figures (``add`` forks a
# parser child: its CPU is counted once it has been reaped, at the library's close).
ADD_PROBE = """
import resource, sys, time
from askalong.cli import main
def written():
    lines = open("/proc/self/io").read().splitlines()
    return int(dict(line.split(": ") for line in lines)["write_bytes"])
start = written()
try:
    main(["add", "--no-embed", "--json", sys.argv[1]], standalone_mode=False)
finally:
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    print(f"PROBE {cpu:.3f} {written() - start}", file=sys.stderr)
"""


def written_bytes() -> int:
    lines = Path("/proc/self/io").read_text().splitlines()
    return int(dict(line.split(": ") for line in lines)["write_bytes"])


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def parsed_manual(docs: int, home: Path) -> Entries:
    """The manual's pages parsed and chunked (stored, not indexed), smallest first."""
    pages = sorted(MANUAL.glob("*.html"), key=lambda p: (p.stat().st_size, p.name))[:docs]
    settings = load_settings(home=home, embedder="none")
    with open_store(settings) as store, Ingestor(settings, store) as ingestor:
        for page in pages:
            ingestor.add(str(page), Access.local())
        documents = store.list_documents(Access.local())
        return [(d, store.chunks(d.id)) for d in documents]


def per_document(folder: Path, entries: Entries) -> None:
    index = KeywordIndex(folder)
    for document, chunks in entries:
        index.add(document, chunks)
    index.close()


def batched(folder: Path, entries: Entries) -> None:
    index = KeywordIndex(folder)
    with index.batch():
        for document, chunks in entries:
            index.add(document, chunks)
    index.close()


def raw_tantivy(folder: Path, entries: Entries) -> None:
    import tantivy

    folder.mkdir()
    index = tantivy.Index(build_schema(), path=str(folder))
    writer = index.writer(heap_size=32_000_000, num_threads=1)
    for document, chunks in entries:
        for chunk in chunks:
            writer.add_document(chunk_entry(document, chunk))
    writer.commit()
    writer.wait_merging_threads()


ARMS: dict[str, Callable[[Path, Entries], None]] = {
    "a commit per document (before)": per_document,
    "batched (now)": batched,
    "raw tantivy, one commit (floor)": raw_tantivy,
}


def measure(arm: Callable[[Path, Entries], None], entries: Entries) -> tuple[float, int, int, int]:
    """CPU seconds, bytes written, final size, documents searchable."""
    with tempfile.TemporaryDirectory(prefix="keyword-batch-") as tmp:
        folder = Path(tmp) / "keyword"
        written, cpu = written_bytes(), time.process_time()
        arm(folder, entries)
        cpu, written = time.process_time() - cpu, written_bytes() - written
        found = len(KeywordIndex(folder).document_ids())
        return cpu, written, folder_bytes(folder), found


def add_folder(src: Path, docs: int) -> tuple[float, int]:
    """``askalong add --no-embed`` of the manual's pages, in a fresh home: CPU s, bytes."""
    pages = sorted(MANUAL.glob("*.html"), key=lambda p: (p.stat().st_size, p.name))[:docs]
    with tempfile.TemporaryDirectory(prefix="keyword-add-") as tmp:
        folder = Path(tmp) / "pages"
        folder.mkdir()
        for page in pages:
            shutil.copyfile(page, folder / page.name)
        env = {**os.environ, "PYTHONPATH": str(src), "ASKALONG_HOME": str(Path(tmp) / "home")}
        env["ASKALONG_EMBEDDER"] = "none"
        command = [sys.executable, "-c", ADD_PROBE, str(folder)]
        ran = subprocess.run(command, env=env, capture_output=True, text=True)
        line = next((x for x in ran.stderr.splitlines() if x.startswith("PROBE")), None)
        if line is None:
            raise SystemExit(f"askalong add failed: {ran.stderr[-2000:]}")
        cpu, written = line.split()[1:]
        return float(cpu), int(written)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=1174)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--add", action="store_true", help="also time `askalong add` per tree")
    parser.add_argument("--tree", action="append", default=[], help="LABEL=SRC_DIR (--add)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="keyword-manual-") as home:
        entries = parsed_manual(args.docs, Path(home))
    chunks = sum(len(c) for _, c in entries)
    figures: dict[str, list[tuple[float, int, int, int]]] = {name: [] for name in ARMS}
    for _ in range(args.repeat):
        for name, arm in ARMS.items():
            figures[name].append(measure(arm, entries))
    rows = [_row(name, runs) for name, runs in figures.items()]
    text = _report(len(entries), chunks, rows)
    if args.add:
        trees = {t.split("=", 1)[0]: Path(t.split("=", 1)[1]).resolve() for t in args.tree}
        text += _add_report(trees or {"this tree": ROOT / "src"}, args.docs, args.repeat)
    write_results(text, f"keyword-batch-{datetime.now(UTC):%Y-%m-%d}.md", args.out)


def _row(name: str, runs: list[tuple[float, int, int, int]]) -> list[str]:
    cpu = statistics.median(r[0] for r in runs)
    written = statistics.median(r[1] for r in runs)
    size = statistics.median(r[2] for r in runs)
    found = min(r[3] for r in runs)
    ratio = written / size if size else 0.0
    return [name, f"{cpu:.2f}", f"{written / 1e6:.1f}", f"{size / 1e6:.2f}", f"{ratio:.1f}x",
            str(found)]  # fmt: skip


def _report(documents: int, chunks: int, rows: list[list[str]]) -> str:
    header = ["keyword index written", "CPU s", "disk written MB", "final MB", "written/final",
              "documents found"]  # fmt: skip
    return (
        f"# Keyword index batching ({datetime.now(UTC):%Y-%m-%d})\n\n"
        f"The PostgreSQL manual: {documents} pages, {chunks} chunks; load "
        f"{os.getloadavg()[0]:.1f}, {os.cpu_count()} cores.\n\n"
        + markdown_table(header, "lrrrrr", rows)
    )


def _add_report(trees: dict[str, Path], docs: int, repeat: int) -> str:
    runs: dict[str, list[tuple[float, int]]] = {label: [] for label in trees}
    for _ in range(repeat):
        for label, src in trees.items():  # interleaved: a noisy machine loads them alike
            runs[label].append(add_folder(src, docs))
    rows = [
        [
            label,
            f"{statistics.median(r[0] for r in found):.2f}",
            f"{statistics.median(r[1] for r in found) / 1e6:.1f}",
        ]
        for label, found in runs.items()
    ]
    header = ["`askalong add --no-embed FOLDER` (parse, store, index)", "CPU s", "disk MB"]
    return "\n" + markdown_table(header, "lrr", rows)


if __name__ == "__main__":
    main()
