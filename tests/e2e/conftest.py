"""One live server with the three test documents and one headless Chromium per session;
each test's page is a fresh browser context holding the cookie the tokened address left
(entered once per server), so the reader runs on it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, StorageState, sync_playwright

from conftest import REPO
from e2e.asking import Asking, asking_library
from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server

DOCUMENTS = {
    "paper": "pdf/en_2col/N18-3011.pdf",
    "manual": "manuals/postgresql-15-html/sql-select.html",
    "chinese": "pdf/zh/xjtu_journal_2col_sample.pdf",
}
ARTIFACTS = REPO / "test-artifacts" / "e2e"
# (browser, server address, token) -> the storage state the tokened entry leaves: its session
# cookie (the token tells apart two servers that had the same port in turn).
_SIGNED_IN: dict[tuple[int, str, str], StorageState] = {}


@dataclass(frozen=True)
class Library:
    server: LiveServer
    ids: dict[str, str]  # DOCUMENTS key -> document id


@pytest.fixture(scope="session")
def library(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    with live_server(tmp_path_factory.mktemp("e2e") / "home") as server:
        ids = {key: server.upload(evaldata / path) for key, path in DOCUMENTS.items()}
        yield Library(server, ids)


@pytest.fixture(scope="session")
def reading_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A second shared server for the modules that each read documents of their own (they
    upload them): one start-up instead of one a module. The library's server keeps its
    three documents alone (its tests count them)."""
    with live_server(tmp_path_factory.mktemp("e2e-room") / "home") as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, library: Library) -> Iterator[Page]:
    """A blank page signed in to the shared library's server: each test opens the page it
    reads (loading the library first would cost half a second a test, unused)."""
    with entered_page(browser, library.server, landing=None) as page:
        yield page


@pytest.fixture(scope="session")
def asking(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Asking]:
    """The asking tests' own server (e2e/asking.py: SPECTER and a note)."""
    yield from asking_library(evaldata, tmp_path_factory.mktemp("e2e-asking"))


@pytest.fixture
def asking_page(browser: Browser, asking: Asking) -> Iterator[Page]:
    with entered_page(browser, asking.server, landing=None) as page:
        yield page


@contextmanager
def entered_page(
    browser: Browser,
    server: LiveServer,
    viewport: tuple[int, int] = (1440, 900),
    locale: str = "en-US",
    landing: str | None = "/",
) -> Iterator[Page]:
    """A fresh browser context's page with the session cookie of the server's tokened
    address, at `landing` (None: left blank for the test to navigate); any script error in
    it fails the test. The browser's language is `locale` (English unless a test asks: the
    UI follows it, lib/i18n.js)."""
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]},
        locale=locale,
        storage_state=signed_in(browser, server),
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if landing is not None:
        page.goto(server.url + landing)
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"


def signed_in(browser: Browser, server: LiveServer) -> StorageState:
    """The cookies the server's tokened address leaves, entered once per browser and
    server: a test's own context starts with them instead of entering again."""
    key = (id(browser), server.url, server.token)
    if key not in _SIGNED_IN:
        context = browser.new_context()
        context.new_page().goto(server.entry("/"))
        _SIGNED_IN[key] = context.storage_state()
        context.close()
    return _SIGNED_IN[key]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
