"""Ingest speed: our PDF parse (+ chunk) beside raw pypdfium2 text extraction.

For every PDF in ``evaldata/pdf/`` and the gnuplot manual, times (median of 3 runs, in
the same process) our ``parse`` followed by ``chunk_blocks``, and pypdfium2's plain
``get_text_range()`` over the same pages. Scanned pages are not OCRed here
(``benchmarks/layout.py`` measures OCR). Prints a markdown table and writes it to
``benchmarks/results/ingest-<date>.md``.

    python benchmarks/ingest.py
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from _table import write_results
from askalong.parse.pdf.parser import parse
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3

try:
    from askalong.chunk.prose import chunk_blocks
except ImportError:  # the chunker is not there yet: measure parse alone
    chunk_blocks = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Row:
    name: str
    pages: int
    ours: float  # seconds, median of RUNS
    raw: float
    ours_cpu: float = 0.0  # CPU seconds of this process, median of RUNS
    raw_cpu: float = 0.0

    @property
    def ratio(self) -> float:
        return self.ours / self.raw if self.raw else 0.0


def pdf_paths() -> list[Path]:
    paths = sorted((EVALDATA / "pdf").glob("*/*.pdf"))
    return [*paths, EVALDATA / "manuals" / "gnuplot-5.4.pdf"]


def ours(data: bytes, name: str) -> int:
    # OCR off: this measures the text pipeline; OCR speed is in benchmarks/layout.py.
    parsed = parse(data, source=name, ocr=False)
    if chunk_blocks is not None:
        chunk_blocks(name, parsed.blocks)
    return parsed.page_count


def raw_text(data: bytes, name: str) -> int:
    document = pdfium.PdfDocument(data)
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
        return len(document)
    finally:
        document.close()


def median_seconds(
    work: Callable[[bytes, str], int], data: bytes, name: str
) -> tuple[float, float]:
    """(wall seconds, CPU seconds), each the median of RUNS runs."""
    wall, cpu = [], []
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        work(data, name)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def measure(path: Path) -> Row:
    data = path.read_bytes()
    pages = ours(data, path.name)  # also warms the caches
    ours_wall, ours_cpu = median_seconds(ours, data, path.name)
    raw_wall, raw_cpu = median_seconds(raw_text, data, path.name)
    return Row(f"{path.parent.name}/{path.name}", pages, ours_wall, raw_wall, ours_cpu, raw_cpu)


def table(rows: Sequence[Row]) -> str:
    what = "parse + chunk" if chunk_blocks is not None else "parse only (no chunker yet)"
    head = [
        f"Ingest speed, {what} vs raw pypdfium2 `get_text_range()`, median of {RUNS} runs,",
        f"{platform.python_implementation()} {platform.python_version()},"
        f" {os.cpu_count()} cores, pypdfium2 {pdfium.version.PYPDFIUM_INFO}.",
        "",
        f"| file | pages | {what} s | pages/s | raw s | raw pages/s | ours / raw |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    total = Row(
        "**total**",
        sum(r.pages for r in rows),
        sum(r.ours for r in rows),
        sum(r.raw for r in rows),
        sum(r.ours_cpu for r in rows),
        sum(r.raw_cpu for r in rows),
    )
    load = os.getloadavg()
    tail = [
        "",
        f"Load average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on"
        f" {os.cpu_count()} cores (the machine is shared; wall times grow with the load).",
        f"CPU time of this process, which the load barely moves: ours"
        f" {_rate(total.pages, total.ours_cpu)} pages/s, raw {_rate(total.pages, total.raw_cpu)}"
        f" pages/s, ours / raw {total.ours_cpu / total.raw_cpu:.1f}x.",
    ]
    return "\n".join([*head, *(_row(row) for row in [*rows, total]), *tail]) + "\n"


def _row(row: Row) -> str:
    return (
        f"| {row.name} | {row.pages} | {row.ours:.3f} | {_rate(row.pages, row.ours)} "
        f"| {row.raw:.3f} | {_rate(row.pages, row.raw)} | {row.ratio:.1f}x |"
    )


def _rate(pages: int, seconds: float) -> str:
    return f"{pages / seconds:.0f}" if seconds else "-"


def main() -> int:
    rows = [measure(path) for path in pdf_paths()]
    out = write_results(table(rows), f"ingest-{datetime.date.today().isoformat()}.md", None)
    print(f"written to {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
