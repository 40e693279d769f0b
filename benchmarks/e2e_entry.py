"""What an e2e test's page costs before the test starts: a fresh browser context entered
through the server's tokened address and landed on the library (how every test began until
2026-12-05), against one that starts with the stored session cookie, blank or landed on
the library. Prints a table; the e2e fixtures (tests/e2e/conftest.py) use the second.

    PYTHONPATH=src .venv/bin/python benchmarks/e2e_entry.py [--repeat 12]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from e2e.conftest import entered_page, signed_in  # noqa: E402
from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server  # noqa: E402

PAPER = "pdf/en_2col/N18-3011.pdf"


def through_the_token(browser: Browser, server: LiveServer) -> None:
    context = browser.new_context()
    context.new_page().goto(server.entry("/"))
    context.close()


def stored_cookie(landing: str | None) -> Callable[[Browser, LiveServer], None]:
    def open_page(browser: Browser, server: LiveServer) -> None:
        with entered_page(browser, server, landing=landing):
            pass

    return open_page


def seconds_each(
    how: Callable[[Browser, LiveServer], None], browser: Browser, server: LiveServer, repeat: int
) -> float:
    how(browser, server)  # warm
    started = time.perf_counter()
    for _ in range(repeat):
        how(browser, server)
    return (time.perf_counter() - started) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=12)
    args = parser.parse_args()
    evaldata = Path(os.environ.get("ASKALONG_EVALDATA", ROOT.parent / "shared" / "evaldata"))
    ways = {
        "tokened address, then the library (before)": through_the_token,
        "stored cookie, blank (the page fixture now)": stored_cookie(None),
        "stored cookie, then the library": stored_cookie("/"),
    }
    with tempfile.TemporaryDirectory() as folder, live_server(Path(folder) / "home") as server:
        server.upload(evaldata / PAPER)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            signed_in(browser, server)
            rows = {
                name: seconds_each(how, browser, server, args.repeat) for name, how in ways.items()
            }
            browser.close()
    print(f"load {os.getloadavg()[0]:.1f}, {args.repeat} pages each\n")
    print("| a test's page | seconds |\n|---|---:|")
    for name, seconds in rows.items():
        print(f"| {name} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
