"""Reader speed: from navigation to the first PDF page shown with its text layer, and from
clicking Explain on a selection to the first answer text in the side panel.

Starts a real server (private ASKALONG_HOME, keyword search only) with an indexed PDF of
about 20 pages, then loads the reader in headless Chromium and reads the
``askalong:first-page`` performance mark (page 1's image loaded, its text layer built),
measured from navigation start. Cold: the server's page-image cache is emptied before the
load; warm: it is kept. Every load uses a fresh browser context (empty browser cache).

Explain: in a fresh context the reader is opened, a sentence on page 1 is selected by
dragging, the floating button and then Explain are clicked; timed in the page from the
click on Explain to the first answer text shown, and to the checked answer (``done``),
with the offline extractive answerer. Goals: both first page and first answer text
within 1 s.

Zoom: in a fresh context the reader is opened at fit width and page 1 shown; then
``zoom.zoomTo(2 x the fit-width level)`` is timed in the page, from the call to every page
near the view shown at the new width (their images requested at width x devicePixelRatio,
decoded and swapped in). Cold: the server's page-image cache emptied first (the server
draws the 2x images); warm: kept. Goal ≤ 300 ms for a page at 2x width. Also "next
width": zoomed in step by step (+) until the images need the next stock width, the first
width a person zooming in meets that was never drawn (the reader fetches it ahead, when
idle: reader/pdfview.js prefetch; the benchmark's cold empties the server's cache, not the
browser's, so what the reader fetched ahead counts).

Prints markdown tables (with the machine's load from ``uptime``) and writes them to
``benchmarks/results/reader-[<label>-]<date>.md``.

    python benchmarks/reader.py [--label zoom]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server  # noqa: E402
from e2e.reader import drag_select, open_reader, pick_block, sentence_in  # noqa: E402

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
        page.goto(server.entry(f"/reader.html?doc={document_id}"))  # as `serve` prints it
        handle = page.wait_for_function(FIRST_PAGE, timeout=30_000)
        assert page.locator('.page[data-page="1"] .seg').count() > 0
        return float(handle.json_value())
    finally:
        context.close()


WATCH_EXPLAIN = """() => {
  const times = (window.benchTimes = {});
  document.addEventListener("click", (e) => {
    if (e.target.closest(".askbox .chip")) times.click = performance.now();
  }, true);
  const panel = document.getElementById("panel");
  new MutationObserver(() => {
    const turn = panel.querySelector(".turn");
    if (!turn) return;
    const text = turn.querySelector(".answer-text").textContent;
    if (!times.text && text) times.text = performance.now();
    if (!times.done && turn.dataset.status) times.done = performance.now();
  }).observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });
}"""
DONE = "() => window.benchTimes.done && window.benchTimes.text ? window.benchTimes : null"


def explain_ms(browser: Browser, server: LiveServer, document_id: str) -> tuple[float, float]:
    """(click -> first answer text, click -> checked answer) in ms, in a fresh context."""
    structure = server.structure(document_id)
    target = sentence_in(pick_block(structure, page=1, lines=2, min_chars=60))
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.entry("/"))  # the session cookie, as a person gets it
        open_reader(page, server.url, document_id)
        page.wait_for_function(FIRST_PAGE, timeout=30_000)
        page.evaluate(WATCH_EXPLAIN)
        drag_select(page, target)
        page.locator(".fab-ask").click()
        page.locator(".askbox .chip", has_text="Explain").click()
        times = page.wait_for_function(DONE, timeout=30_000).json_value()
        assert page.locator(".turn").get_attribute("data-status") == "answered"
        return times["text"] - times["click"], times["done"] - times["click"]
    finally:
        context.close()


def measure(browser: Browser, server: LiveServer, document_id: str, cold: bool) -> list[float]:
    times = []
    for _ in range(RUNS):
        if cold:
            shutil.rmtree(server.home / "cache" / "pages", ignore_errors=True)
        times.append(first_page_ms(browser, server, document_id))
    return times


ZOOM_TWICE = """async () => {
  const zoom = window.askalong.zoom;
  const img = document.querySelector('.page[data-page="1"] img');
  let first = null;
  const start = performance.now();
  img.addEventListener("load", () => (first = performance.now() - start), { once: true });
  await zoom.zoomTo(zoom.level() * 2);
  const wide = `width=${zoom.view.imageWidth()}`;
  const pages = [...document.querySelectorAll(".page.loaded img")].filter((i) =>
    i.currentSrc.includes(wide));
  return {ms: performance.now() - start, first, pages: pages.length};
}"""

ZOOM_NEXT_WIDTH = """async () => {
  const zoom = window.askalong.zoom;
  const view = zoom.view;
  const before = view.imageWidth();
  const img = document.querySelector('.page[data-page="1"] img');
  let first = null;
  const start = performance.now();
  img.addEventListener("load", () => (first = performance.now() - start), { once: true });
  for (let i = 0; i < 12 && view.imageWidth() === before; i += 1) await zoom.step(1);
  const wide = `width=${view.imageWidth()}`;
  const pages = [...document.querySelectorAll(".page.loaded img")].filter((i) =>
    i.currentSrc.includes(wide));
  return {ms: performance.now() - start, first, pages: pages.length};
}"""
ZOOMS = {"2x": ZOOM_TWICE, "next width": ZOOM_NEXT_WIDTH}


@dataclass(frozen=True)
class Zoomed:
    first_ms: float  # zoomTo(2x) -> page 1 shown at the new width
    all_ms: float  # zoomTo(2x) -> every page near the view shown at it
    pages: int  # how many pages that was


def zoom_ms(
    browser: Browser, server: LiveServer, document_id: str, cold: bool, script: str = ZOOM_TWICE
) -> Zoomed:
    """One zoom (`script`: to twice the fit width by default), in a fresh context."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.entry("/"))
        open_reader(page, server.url, document_id)
        page.wait_for_function(FIRST_PAGE, timeout=30_000)
        page.wait_for_load_state("networkidle")  # the pages near page 1 are in at 1x
        if cold:
            shutil.rmtree(server.home / "cache" / "pages", ignore_errors=True)
        result = page.evaluate(script)
        return Zoomed(float(result["first"]), float(result["ms"]), int(result["pages"]))
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--label", default="", help="a name put in the results file's name")
    run_label = parser.parse_args().label
    rows = []
    explain_rows = []
    zoom_rows = []
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
            explain_ms(browser, server, document_id)  # warm-up
            runs = [explain_ms(browser, server, document_id) for _ in range(RUNS)]
            texts, dones = [r[0] for r in runs], [r[1] for r in runs]
            explain_rows.append(
                (name, pages, statistics.median(texts), max(texts), statistics.median(dones))
            )
            zoom_ms(browser, server, document_id, cold=False)  # warm-up
            for (kind, script), (cache, cold) in itertools.product(
                ZOOMS.items(), (("cold", True), ("warm", False))
            ):
                zooms = [zoom_ms(browser, server, document_id, cold, script) for _ in range(RUNS)]
                firsts = [z.first_ms for z in zooms]
                shown = min(z.pages for z in zooms)
                every = statistics.median(z.all_ms for z in zooms)
                zoom_rows.append(
                    (name, kind, cache, statistics.median(firsts), max(firsts), shown, every)
                )
        browser.close()
    report = (
        render(rows)
        + render_explain(explain_rows)
        + render_zoom(zoom_rows)
        + f"\nMachine load: `{_uptime()}`\n"
    )
    print(report)
    stem = f"reader-{run_label}-" if run_label else "reader-"
    out = ROOT / "benchmarks" / "results" / f"{stem}{datetime.date.today()}.md"
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


def render_explain(rows: list[tuple[str, int, float, float, float]]) -> str:
    lines = [
        "",
        "# Reader: click Explain -> first answer text (offline extractive answerer)",
        "",
        f"Median of {RUNS} questions, each in a fresh context on a sentence of page 1; goal "
        "≤ 1000 ms.",
        "",
        "| document | pages | first answer text, median ms | max ms | checked answer, median ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, pages, median, worst, done in rows:
        lines.append(f"| {name} | {pages} | {median:.0f} | {worst:.0f} | {done:.0f} |")
    return "\n".join(lines) + "\n"


def render_zoom(rows: list[tuple[str, str, str, float, float, int, float]]) -> str:
    caption = (
        f"Median of {RUNS} zooms, each in a fresh context (empty browser cache) from fit width "
        "on page 1; devicePixelRatio 1; goal ≤ 300 ms for a page at 2x width."
    )
    header = (
        "| document | zoom | page-image cache | page 1 at the new width, median ms | max ms "
        "| pages near the view | all of them, median ms |"
    )
    cells = [
        f"| {n} | {k} | {c} | {m:.0f} | {w:.0f} | {p} | {a:.0f} |" for n, k, c, m, w, p, a in rows
    ]
    title = "Reader: zoom (2x the fit width; the next stock width) -> the pages drawn again"
    rule = "|---|---|---|---:|---:|---:|---:|"
    return f"\n# {title}\n\n{caption}\n\n{header}\n{rule}\n" + "\n".join(cells) + "\n"


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"load average {os.getloadavg()}"


if __name__ == "__main__":
    main()
