"""The library as a small team sees it, for the teams guide: a server with accounts
(``alice`` and ``bob`` in ``acme``), alice signed in (the top bar: her name, her org,
*Sign out*), bob's note shared with acme (grouped *Shared with you · acme*), her own
documents with their share control, and an upload queue caught mid-way: two files added,
two being sent, one waiting its turn, an empty file refused at once. 1400 wide, the
whole page, light, in
English and Chinese (``docs/images/library-team-<lang>-light-1400.png``).

    python benchmarks/team_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Route, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from askalong.config import load_settings  # noqa: E402
from askalong.store.backends import open_store  # noqa: E402
from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server  # noqa: E402
from screenshots import EVALDATA, LOCALES, SPECTER, report, small_png  # noqa: E402

PASSWORD = "a long secret phrase 7"
NOTES = {
    "harbour-tides.md": "# Harbour tides\n\nHigh water at the north pier comes twice a day.\n",
    "ferry-times.md": "# Ferry times\n\nThe ferry leaves at noon from the north pier.\n",
    "pier-repairs.md": "# Pier repairs\n\nThe north pier closes for repairs in March.\n",
    "lighthouse-log.md": "# Lighthouse log\n\nThe lamp was serviced on the first of May.\n",
}
SENT_THROUGH = 2  # the first two files' pieces go through; the rest are held mid-way


def team_home(home: Path) -> None:
    with open_store(load_settings(home=home)) as store:
        for user in ("root", "alice", "bob"):
            store.add_user(user, PASSWORD)
        store.add_org("acme")
        for user in ("alice", "bob"):
            store.set_member("acme", user, "member")


def shared_by_bob(server: LiveServer) -> None:
    """Bob's note, shared with acme, through the API as bob."""
    with httpx.Client(base_url=server.url, timeout=60) as bob:
        bob.post("/api/login", json={"user": "bob", "password": PASSWORD}).raise_for_status()
        csrf = bob.get("/api/session").json()["csrf_token"]
        note = ("tide-tables.md", b"# Tide tables\n\nSpring tides come at new and full moon.\n")
        added = bob.post("/api/documents", files={"file": note}, headers={"X-CSRF-Token": csrf})
        added.raise_for_status()
        document_id = added.json()["document"]["id"]
        body = {"visibility": "org"}
        bob.put(
            f"/api/documents/{document_id}/visibility", json=body, headers={"X-CSRF-Token": csrf}
        ).raise_for_status()


def take(browser: Browser, server: LiveServer, files: list[Path], out: Path) -> list[Path]:
    saved = []
    for language, locale in LOCALES.items():
        path = out / f"library-team-{language}-light-1400.png"
        path.write_bytes(small_png(shot(browser, server, files, locale)))
        saved.append(path)
        listed = httpx.get(server.url + "/api/documents", headers=server.headers).json()
        for document in listed["documents"]:  # the next language's queue starts afresh
            if document["owner"] == "alice":
                httpx.delete(f"{server.url}/api/documents/{document['id']}", headers=server.headers)
    return saved


def shot(browser: Browser, server: LiveServer, files: list[Path], locale: str) -> bytes:
    """Alice's library, ``files`` chosen: the whole page once two of them are added."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale=locale)
    try:
        page = context.new_page()
        page.goto(server.url + "/login.html")
        page.fill("#user", "alice")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("body.ready")
        passed: list[str] = []

        def hold_after_two(route: Route) -> None:
            if route.request.method == "PATCH" and len(passed) >= SENT_THROUGH:
                return  # held: the row stays mid-way for the picture
            if route.request.method == "PATCH":
                passed.append(route.request.url)
            route.continue_()

        page.route("**/api/uploads/**", hold_after_two)
        page.locator("#file").set_input_files([str(f) for f in files])
        expect(page.locator(".upload-row[data-state=done]")).to_have_count(2, timeout=60_000)
        page.locator(".upload-row").first.locator(".share-select").select_option("org")
        page.mouse.move(1, 1)
        page.wait_for_timeout(1500)
        return page.screenshot(full_page=True)
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="askalong-team-shots-") as tmp:
        folder = Path(tmp)
        files = []
        for name, text in NOTES.items():
            (folder / name).write_text(text, encoding="utf-8")
            files.append(folder / name)
        (folder / "empty-notes.md").write_bytes(b"")
        files.insert(2, folder / "empty-notes.md")
        files.insert(3, EVALDATA / SPECTER)
        team_home(folder / "home")
        with live_server(folder / "home", startup=300) as server, sync_playwright() as playwright:
            shared_by_bob(server)
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                report(take(browser, server, files, args.out))
            finally:
                browser.close()


if __name__ == "__main__":
    main()
