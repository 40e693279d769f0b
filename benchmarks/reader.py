"""Reader speed: from navigation to the first PDF page shown with its text layer.

Starts a real server (private ASKALONG_HOME, keyword search only) with an indexed PDF of
about 20 pages, then loads the reader in headless Chromium and reads the
``askalong:first-page`` performance mark (page 1's image loaded, its text layer built),
measured from navigation start. Cold: the server's page-image cache is emptied before the
load; warm: it is kept. Every load uses a fresh browser context (empty browser cache).
Prints a markdown table and writes it to ``benchmarks/results/reader-<date>.md``.

    python benchmarks/reader.py
"""

from __future__ import annotations

import datetime
import os
import platform
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server  # noqa: E402

EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA") or ROOT.parent / "shared" / "evaldata")
PDFS = ("pdf/en_2col/ALCE.pdf", "pdf/zh/ctex_manual.pdf")
RUNS = 5
FIRST_PAGE = """() => {
  const mark = performance.getEntriesByName("askalong:first-page")[0];
  return mark ? mark.startTime : null;
}"""


def first_page_ms(browser: Browser, server: LiveServer, document_id: str) -> float:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/reader.html?doc={document_id}")
        handle = page.wait_for_function(FIRST_PAGE, timeout=30_000)
        assert page.locator('.page[data-page="1"] .seg').count() > 0
        return float(handle.json_value())
    finally:
        context.close()


def measure(browser: Browser, server: LiveServer, document_id: str, cold: bool) -> list[float]:
    times = []
    for _ in range(RUNS):
        if cold:
            shutil.rmtree(server.home / "cache" / "pages", ignore_errors=True)
        times.append(first_page_ms(browser, server, document_id))
    return times


def main() -> None:
    rows = []
    with (
        tempfile.TemporaryDirectory() as temp,
        live_server(Path(temp) / "home") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in PDFS:
            document_id = server.upload(EVALDATA / name)
            pages = len(server.structure(document_id)["pages"])  # type: ignore[arg-type]
            first_page_ms(browser, server, document_id)  # warm the server process up
            for label, cold in (("cold", True), ("warm", False)):
                times = measure(browser, server, document_id, cold)
                rows.append((name, pages, label, statistics.median(times), max(times)))
        browser.close()
    report = render(rows)
    print(report)
    out = ROOT / "benchmarks" / "results" / f"reader-{datetime.date.today()}.md"
    out.write_text(report, encoding="utf-8")


def render(rows: list[tuple[str, int, str, float, float]]) -> str:
    lines = [
        "# Reader: navigation to first page with text layer",
        "",
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"headless Chromium; median of {RUNS} loads, fresh browser context each.",
        "",
        "| document | pages | page-image cache | median ms | max ms |",
        "|---|---:|---|---:|---:|",
    ]
    for name, pages, label, median, worst in rows:
        lines.append(f"| {name} | {pages} | {label} | {median:.0f} | {worst:.0f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
