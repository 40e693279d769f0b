"""One live server with the three test documents and one headless Chromium per session;
each test's page enters through the tokened address, so the reader runs on its cookie."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from conftest import REPO
from e2e.asking import Asking, asking_library
from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server

DOCUMENTS = {
    "paper": "pdf/en_2col/N18-3011.pdf",
    "manual": "manuals/postgresql-15-html/sql-select.html",
    "chinese": "pdf/zh/xjtu_journal_2col_sample.pdf",
}
ARTIFACTS = REPO / "test-artifacts" / "e2e"


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
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, library: Library) -> Iterator[Page]:
    with entered_page(browser, library.server) as page:
        yield page


@pytest.fixture(scope="session")
def asking(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Asking]:
    """The asking tests' own server (e2e/asking.py: SPECTER and a note)."""
    yield from asking_library(evaldata, tmp_path_factory.mktemp("e2e-asking"))


@pytest.fixture
def asking_page(browser: Browser, asking: Asking) -> Iterator[Page]:
    with entered_page(browser, asking.server) as page:
        yield page


@contextmanager
def entered_page(
    browser: Browser,
    server: LiveServer,
    viewport: tuple[int, int] = (1440, 900),
    locale: str = "en-US",
) -> Iterator[Page]:
    """A fresh browser context's page, entered through the server's tokened address; any
    script error in it fails the test. The browser's language is `locale` (English unless
    a test asks: the UI follows it, lib/i18n.js)."""
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, locale=locale
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.entry("/"))
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
