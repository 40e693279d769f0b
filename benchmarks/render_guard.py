"""Page images drawn in the guarded render child against drawing them in the calling
process (as the server did before issue 11's item 3), in the same run.

For two real PDFs, page 1 at 1200 px (the route's default width): the median of ``RUNS``
draws in this process (``draw_png``, the child's own work), through a running render
child (``GuardedChild`` as ``PageRenderer`` uses it: the request and the PNG cross a pipe),
and through a child started just before the call (a renderer replaced after a failure, or
a first page asked before the server's warm start finished). Then a hostile page
(``slow_page_pdf``: a 5 KB content stream of 100,000 page fills) once each way: in this
process it takes as long as pdfium needs; in the child the per-image limit stops it.
Prints markdown tables and writes them to ``benchmarks/results/render-guard-<date>.md``.

    python benchmarks/render_guard.py
"""

from __future__ import annotations

import datetime
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

from samples import slow_page_pdf  # noqa: E402

from _table import write_results  # noqa: E402
from askalong.errors import TooLarge  # noqa: E402
from askalong.parse.guard import ChildFailure, GuardedChild  # noqa: E402
from askalong.parse.pdf.render import draw_png  # noqa: E402
from askalong.settings import Settings  # noqa: E402

PDFS = ("pdf/en_2col/ALCE.pdf", "pdf/zh/ctex_manual.pdf")
RUNS = 7
WIDTH = 1200
FILLS = 100_000


def timed(call: Callable[..., object], *args: object) -> float:
    started = time.perf_counter()
    call(*args)
    return (time.perf_counter() - started) * 1000


def fresh_child_ms(settings: Settings, request: tuple[str, int, int, str]) -> float:
    child = GuardedChild(draw_png, settings.render_memory_mb)
    try:
        child.start()
        return timed(child.call, request, settings.render_timeout)
    finally:
        child.close()


def ordinary_rows(settings: Settings, child: GuardedChild) -> list[tuple[str, float, float, float]]:
    rows = []
    for name in PDFS:
        request = (str(EVALDATA / name), 1, WIDTH, name)
        child.call(request, settings.render_timeout)  # both ways warmed: pdfium loaded
        draw_png(*request)
        here, guarded, fresh = [], [], []
        for _ in range(RUNS):  # interleaved, so load drift hits all three alike
            here.append(timed(draw_png, *request))
            guarded.append(timed(child.call, request, settings.render_timeout))
            fresh.append(fresh_child_ms(settings, request))
        medians = (statistics.median(here), statistics.median(guarded), statistics.median(fresh))
        rows.append((name, *medians))
    return rows


def hostile_row(settings: Settings, child: GuardedChild) -> tuple[float, str, float, str]:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "slow.pdf"
        path.write_bytes(slow_page_pdf(FILLS))
        request = (str(path), 2, 240, "slow.pdf")
        here = timed(draw_png, *request)
        started = time.perf_counter()
        try:
            child.call(request, settings.render_timeout)
            outcome = "drawn"
        except ChildFailure as failure:
            outcome = f"stopped ({failure.kind}) -> 413"
        except TooLarge:
            outcome = "refused -> 413"
        guarded = (time.perf_counter() - started) * 1000
    return here, "drawn (200)", guarded, outcome


def main() -> None:
    settings = Settings()
    child = GuardedChild(draw_png, settings.render_memory_mb)
    try:
        rows = ordinary_rows(settings, child)
        hostile = hostile_row(settings, child)
    finally:
        child.close()
    report = render(rows, hostile, settings) + f"\nMachine load: `{_uptime()}`\n"
    write_results(report, f"render-guard-{datetime.date.today()}.md", None)


def render(
    rows: list[tuple[str, float, float, float]],
    hostile: tuple[float, str, float, str],
    settings: Settings,
) -> str:
    lines = [
        "# Page images: in the server process vs the guarded render child",
        "",
        f"Page 1 at {WIDTH} px, PNG; median of {RUNS} draws each, interleaved, same run.",
        "",
        "| document | in process, ms | render child, ms | ratio | child started just before, ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, here, guarded, fresh in rows:
        lines.append(
            f"| {name} | {here:.0f} | {guarded:.0f} | {guarded / here:.2f} | {fresh:.0f} |"
        )
    here, here_outcome, guarded, outcome = hostile
    lines += [
        "",
        f"Hostile page: `slow_page_pdf({FILLS:,})` page 2 at 240 px (a 5 KB file); render "
        f"child limits {settings.render_timeout:g} s, {settings.render_memory_mb} MB.",
        "",
        "| where | ms | outcome |",
        "|---|---:|---|",
        f"| in process (before) | {here:.0f} | {here_outcome} |",
        f"| render child (after) | {guarded:.0f} | {outcome} |",
    ]
    return "\n".join(lines) + "\n"


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


if __name__ == "__main__":
    main()
