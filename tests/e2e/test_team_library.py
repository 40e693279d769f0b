"""The library for a small team, in real Chromium against a server with accounts: the top
bar of every page says who is signed in and in which organisations and signs out; a new
member's empty library explains that others' private documents stay private; the
uploader picks who may see a document in its upload row and on its card; a member sees
what is shared with them grouped by organisation, and another's private document not at
all. The local owner (no accounts) sees none of this. English and Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from askalong.config import load_settings
from askalong.store.backends import open_store
from e2e.conftest import entered_page
from e2e.live import LiveServer, live_server

PASSWORD = "a long secret phrase 7"
NOTE = "# {title}\n\nThe {title} note says the ferry leaves at noon from the north pier.\n"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``root`` (the first account, an administrator), ``alice`` and ``bob`` in ``acme``,
    ``dave`` administering ``acme``, and ``carol`` in no organisation."""
    home = tmp_path_factory.mktemp("e2e-team-library") / "home"
    with open_store(load_settings(home=home)) as store:
        for user in ("root", "alice", "bob", "carol", "dave"):
            store.add_user(user, PASSWORD)
        store.add_org("acme")
        for user in ("alice", "bob"):
            store.set_member("acme", user, "member")
        store.set_member("acme", "dave", "admin")
    with live_server(home) as server:
        yield server


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    made.on("weberror", lambda error: errors.append(str(error.error)))
    yield made
    made.close()
    assert not errors, f"script errors in the page: {errors}"


def signed_in(context: BrowserContext, team: LiveServer, user: str) -> Page:
    page = context.new_page()
    page.goto(team.url + "/login.html")
    page.fill("#user", user)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(team.url + "/")
    page.wait_for_selector("body.ready")
    return page


def note(folder: Path, title: str) -> Path:
    path = folder / f"{title.lower().replace(' ', '-')}.md"
    path.write_text(NOTE.format(title=title), encoding="utf-8")
    return path


def test_the_top_bar_says_who_is_signed_in_on_every_page_and_signs_out(
    context: BrowserContext, team: LiveServer
) -> None:
    page = signed_in(context, team, "alice")
    for path in ("/", "/chat.html", "/reader.html", "/collection.html"):
        page.goto(team.url + path)
        identity = page.locator(".topbar .identity")
        expect(identity.locator(".identity-user")).to_have_text("alice")
        expect(identity.locator(".identity-orgs")).to_have_text("in acme")
    page.goto(team.url + "/")
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(team.url + "/login.html")
    assert page.request.get(team.url + "/api/session").status == 401  # the session is gone


def test_a_new_members_empty_library_says_private_documents_stay_private(
    context: BrowserContext, team: LiveServer
) -> None:
    page = signed_in(context, team, "carol")
    expect(page.locator(".empty-private")).to_contain_text("keep private are not listed")
    expect(page.locator(".identity-orgs")).to_have_count(0)  # in no organisation


def test_the_uploader_shares_in_the_row_and_on_the_card_and_members_see_it_grouped(
    context: BrowserContext, team: LiveServer, tmp_path: Path
) -> None:
    alice = signed_in(context, team, "alice")
    alice.locator("#file").set_input_files(str(note(tmp_path, "Ferry times")))
    row = alice.locator(".upload-row")
    row.get_by_label("Who may see ferry-times.md").select_option("org")
    expect(row).to_have_attribute("data-state", "done", timeout=60_000)
    card = alice.locator(".doc-card", has_text="Ferry times")
    expect(card.locator(".share-select")).to_have_value("org", timeout=10_000)
    alice.locator("#file").set_input_files(str(note(tmp_path, "Alice diary")))
    expect(alice.locator(".doc-card", has_text="Alice diary")).to_be_visible(timeout=60_000)
    expect(alice.locator(".doc-group")).to_have_text(["Yours"])

    bob = signed_in(context, team, "bob")  # the same browser: bob's session now
    expect(bob.locator(".doc-group")).to_have_text(["Shared with you · acme"])
    expect(bob.locator(".doc-card")).to_have_count(1)  # not alice's private diary
    expect(bob.locator(".doc-card")).to_contain_text("Ferry times")
    expect(bob.locator(".share-select")).to_have_count(0)  # not bob's to share
    expect(bob.locator(".doc-card .danger-hover")).to_have_count(0)  # nor to remove

    alice = signed_in(context, team, "alice")
    diary = alice.locator(".doc-card", has_text="Alice diary")
    diary.get_by_label("Who may see Alice diary").select_option("public")
    expect(diary.locator(".share-select")).to_have_value("public")
    carol = signed_in(context, team, "carol")
    expect(carol.locator(".doc-group")).to_have_text(["Public"])
    expect(carol.locator(".doc-card")).to_have_count(1)


def test_the_team_library_speaks_chinese(browser: Browser, team: LiveServer) -> None:
    context = browser.new_context(locale="zh-CN")
    page = signed_in(context, team, "alice")
    expect(page.locator(".identity-orgs")).to_have_text("属于 acme")
    expect(page.get_by_role("button", name="退出登录")).to_be_visible()
    expect(page.locator(".doc-group").first).to_have_text("你的文档")
    context.close()


def test_the_local_owner_sees_no_identity_and_no_share_control(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path / "home") as server:
        httpx.post(
            server.url + "/api/documents",
            files={"file": ("n.md", NOTE.format(title="Solo").encode())},
            headers=server.headers,
        ).raise_for_status()
        with entered_page(browser, server) as page:
            page.wait_for_selector("body.ready")
            expect(page.locator(".doc-card")).to_have_count(1)
            expect(page.locator(".identity, .share-select, .doc-group")).to_have_count(0)


def test_the_installs_owner_sees_members_private_documents_as_such(
    browser: Browser, team: LiveServer
) -> None:
    with httpx.Client(base_url=team.url, timeout=60) as alice:
        alice.post("/api/login", json={"user": "alice", "password": PASSWORD}).raise_for_status()
        csrf = alice.get("/api/session").json()["csrf_token"]
        note = ("plans.md", NOTE.format(title="Private plans").encode())
        alice.post(
            "/api/documents", files={"file": note}, headers={"X-CSRF-Token": csrf}
        ).raise_for_status()
    with entered_page(browser, team) as page:  # the install token: sees every document
        page.wait_for_selector("body.ready")
        group = page.locator(".doc-group", has_text="Other members' private documents")
        expect(group).to_have_count(1)
        expect(page.locator(".doc-group").last).to_have_text("Other members' private documents")


def test_an_org_admin_reshares_what_is_shared_with_the_org_on_its_card(
    context: BrowserContext, team: LiveServer, tmp_path: Path
) -> None:
    alice = signed_in(context, team, "alice")
    alice.locator("#file").set_input_files(str(note(tmp_path, "Dock rota")))
    row = alice.locator(".upload-row", has_text="dock-rota.md")
    row.get_by_label("Who may see dock-rota.md").select_option("org")
    expect(row).to_have_attribute("data-state", "done", timeout=60_000)
    alice.locator("#file").set_input_files(str(note(tmp_path, "Dock secrets")))
    expect(alice.locator(".doc-card", has_text="Dock secrets")).to_be_visible(timeout=60_000)

    dave = signed_in(context, team, "dave")
    rota = dave.locator(".doc-card", has_text="Dock rota")
    expect(rota.locator(".share-select")).to_have_value("org", timeout=10_000)
    expect(dave.locator(".doc-card", has_text="Dock secrets")).to_have_count(0)  # private
    rota.get_by_label("Who may see Dock rota").select_option("public")
    expect(rota.locator(".share-select")).to_have_value("public")
    assert dave.request.get(team.url + "/api/session").json()["admin_of"] == ["acme"]

    carol = signed_in(context, team, "carol")  # in no organisation: public now
    expect(carol.locator(".doc-card", has_text="Dock rota")).to_have_count(1)
    bob = signed_in(context, team, "bob")  # a plain member: sees it, may not re-share it
    expect(bob.locator(".doc-card", has_text="Dock rota")).to_have_count(1)
    expect(bob.locator(".doc-card", has_text="Dock rota").locator(".share-select")).to_have_count(0)
