"""A collection in the reader, in real Chromium against a real server: eight PostgreSQL
manual pages added as a folder (`askalong add FOLDER`) show as one collection in the
library; it opens to its document list, and the panel asks it as one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from samples import MANUAL_PAGES, manual_folder

from e2e.a11y import blocking
from e2e.conftest import entered_page
from e2e.live import LiveServer, add_by_cli, live_server
from e2e.reader import AskRequests, wait_for_answer

NAME = "pg-transactions"


@pytest.fixture(scope="module")
def server(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of its own (the shared one's library is counted by other tests), its home
    filled by the CLI first."""
    root = tmp_path_factory.mktemp("e2e-collection")
    home = root / "home"
    add_by_cli(home, manual_folder(evaldata, root, NAME))
    with live_server(home) as running:
        yield running


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    with entered_page(browser, server) as page:
        yield page


def test_the_library_shows_the_collection_and_it_opens_to_its_documents(page: Page) -> None:
    card = page.locator(".collection-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(NAME)
    expect(card).to_contain_text(f"{len(MANUAL_PAGES)} documents")
    card.locator("a").click()
    page.wait_for_url("**/collection.html?c=*")
    page.wait_for_selector("body.ready")
    expect(page.locator("#collection-name")).to_have_text(NAME)
    expect(page.locator("#members .doc-card")).to_have_count(len(MANUAL_PAGES))
    expect(page.locator("#members .doc-card-title", has_text="ROLLBACK")).to_be_visible()


def test_the_panel_asks_the_collection_as_one(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.locator(".collection-card a").click()
    page.wait_for_url("**/collection.html?c=*")
    page.wait_for_selector("body.ready")
    collection_id = page.evaluate("() => window.askalong.collection.id")
    members = set(page.evaluate("() => window.askalong.documents.map((d) => d.id)"))
    asks = AskRequests(page)
    composer = page.locator(".composer-input")
    expect(composer).to_be_visible()
    composer.fill("What does ROLLBACK do?")
    composer.press("Enter")
    turn = wait_for_answer(page)
    expect(turn).to_have_attribute("data-status", "answered")
    [body] = asks.bodies
    assert body["collection"] == collection_id and body["anchor"] is None
    quotes = turn.locator(".quote-card")
    expect(quotes.first).to_be_visible()
    expect(turn.locator(".anchor-chip")).to_contain_text("whole collection")
    quotes.first.click()
    page.wait_for_url("**/reader.html?doc=*")
    opened = page.url.split("doc=")[1]
    assert opened in members


def test_the_collection_views_have_no_serious_accessibility_violations(
    page: Page, server: LiveServer
) -> None:
    """axe-core (e2e/a11y.py) on the library with a collection and on the collection's page."""
    page.goto(server.url + "/")
    expect(page.locator(".collection-card")).to_have_count(1)
    assert blocking(page) == []
    page.locator(".collection-card a").click()
    page.wait_for_url("**/collection.html?c=*")  # the library's body is `.ready` too
    page.wait_for_selector("body.ready")
    expect(page.locator("#members .doc-card")).to_have_count(len(MANUAL_PAGES))
    assert blocking(page) == []
