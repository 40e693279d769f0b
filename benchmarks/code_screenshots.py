"""The code views in the Chinese UI (issue 27), for the docs: a repository of real files
uploaded as one archive, its file tree with the finder narrowing it
(`docs/images/code-tree-zh-light.png`), and the identifier card of `_get_loop` clicked in
`asyncio/locks.py`, its definition in `mixins.py` and its references per file
(`docs/images/code-identifier-zh-light.png`); 1400×900, light, zh-CN, palette PNGs.

    python benchmarks/code_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server  # noqa: E402
from screenshots import entered, report, small_png  # noqa: E402

STDLIB = Path(json.__file__).parent.parent
FILES = {
    f"shop/src/{name}": (STDLIB / name).read_bytes()
    for name in ("json/decoder.py", "json/encoder.py", "asyncio/locks.py", "asyncio/mixins.py")
}
FILES["shop/pyproject.toml"] = b'[project]\nname = "shop"\nversion = "1.0"\n'
CLICKED_LINE = "        fut = self._get_loop().create_future()"
# The box of the first occurrence of a word on a code line.
WORD_BOX = """([line, word]) => {
  const row = document.querySelector(`.code-line[data-line="${line}"] .lc`);
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    return range.getBoundingClientRect().toJSON();
  }
  return null;
}"""


def tree_shot(page: Page, server: LiveServer, collection: str) -> bytes:
    page.goto(f"{server.url}/collection.html?c={collection}")
    page.wait_for_selector("body.ready")
    page.locator(".file-finder").fill("asyncio")
    expect(page.locator(".tree-file:visible")).to_have_count(2)
    return page.screenshot()


def card_shot(page: Page, server: LiveServer, locks: str) -> bytes:
    page.goto(f"{server.url}/reader.html?doc={locks}")
    page.wait_for_selector("body.ready")
    rows = (STDLIB / "asyncio/locks.py").read_text(encoding="utf-8").splitlines()
    line = rows.index(CLICKED_LINE) + 1
    page.locator(f'.code-line[data-line="{line}"]').scroll_into_view_if_needed()
    box = page.evaluate(WORD_BOX, [line, "_get_loop"])
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator(".identifier-card .identifier-link").first).to_be_visible()
    return page.screenshot()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="askalong-code-shots-") as tmp,
        live_server(Path(tmp) / "home", startup=300) as server,
        sync_playwright() as playwright,
    ):
        answer = server.upload_zip("shop.zip", FILES)
        ids = {Path(f["source"]).name: f["document_id"] for f in answer["files"]}
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            with entered(browser, server, (1400, 900), "zh-CN", "light") as page:
                shots = {
                    "code-tree-zh-light.png": tree_shot(page, server, answer["collection"]["id"]),
                    "code-identifier-zh-light.png": card_shot(page, server, ids["locks.py"]),
                }
        finally:
            browser.close()
    paths = []
    for name, data in shots.items():
        path = args.out / name
        path.write_bytes(small_png(data))
        paths.append(path)
    report(paths)


if __name__ == "__main__":
    main()
