"""The reader on a multi-user server, in real Chromium: a user signs in on the login page,
uploads through the library (tus), asks in the reader and renames the thread — every write
carries the session's CSRF token, read from its cookie — while the same writes without
the header are refused (403). The admin page: an admin makes a user (the password shown
once) and adds them to an org; a non-admin gets 404 for the page and its API."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from askalong.config import load_settings
from askalong.store.backends import open_store
from e2e.live import LiveServer, live_server
from e2e.reader import open_reader, wait_for_answer

PASSWORD = "a long secret phrase 7"
NOTE = """# Tides

Tides are caused by the gravity of the Moon pulling on the oceans. They come twice a day,
and spring tides come when the Sun and the Moon line up.
"""


@dataclass(frozen=True)
class Team:
    server: LiveServer
    tokens: dict[str, str]  # user -> API token

    def api(self, user: str) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[user]}"}
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=30)


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Team]:
    """A server with accounts: ``root`` (the first, so an administrator) and ``alice``."""
    home = tmp_path_factory.mktemp("e2e-team") / "home"
    tokens = {}
    with open_store(load_settings(home=home)) as store:
        for user in ("root", "alice"):
            store.add_user(user, PASSWORD)
            tokens[user] = store.create_token(user, "e2e")[1]
        store.add_org("acme")
    with live_server(home) as server:
        yield Team(server, tokens)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    made.on("weberror", lambda error: errors.append(str(error.error)))
    yield made
    made.close()
    assert not errors, f"script errors in the page: {errors}"


def signed_in(context: BrowserContext, team: Team, user: str) -> Page:
    """A page signed in through the login page, back on the library."""
    page = context.new_page()
    page.goto(team.server.url + "/")
    expect(page).to_have_url(team.server.url + "/login.html")
    page.fill("#user", user)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(team.server.url + "/")
    page.wait_for_selector("body.ready")
    return page


def test_a_signed_in_reader_uploads_asks_and_renames(
    context: BrowserContext, team: Team, tmp_path: Path
) -> None:
    page = signed_in(context, team, "alice")
    note = tmp_path / "tides.md"
    note.write_text(NOTE, encoding="utf-8")
    page.locator("#file").set_input_files(str(note))
    expect(page.locator(".upload-row.done")).to_be_visible(timeout=60_000)
    expect(page.locator(".doc-card")).to_have_count(1)
    [listed] = team.api("alice").get("/api/documents").json()["documents"]
    assert listed["owner"] == "alice"

    open_reader(page, team.server.url, listed["id"])
    page.locator(".composer-input").fill("How often do tides come?")
    page.keyboard.press("Enter")
    turn = wait_for_answer(page)
    expect(turn).to_have_attribute("data-status", "answered")
    [thread] = team.api("alice").get(f"/api/documents/{listed['id']}/threads").json()["threads"]

    bar = page.locator(".thread-bar")
    bar.locator(".thread-rename").click()
    page.locator(".thread-title-input").fill("Tides / 潮汐")
    page.locator(".thread-title-input").press("Enter")
    expect(bar.locator(".thread-name")).to_have_text("Tides / 潮汐")
    assert team.api("alice").get(f"/api/threads/{thread['id']}").json()["title"] == "Tides / 潮汐"

    # The same writes from this browser's session without the header: refused.
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    csrf = next(value for name, value in cookies.items() if name.startswith("askalong_csrf_"))
    path = f"/api/threads/{thread['id']}"
    bare = page.request.patch(team.server.url + path, data={"title": "no token"})
    assert bare.status == 403 and bare.json()["error"]["type"] == "CsrfMissing"
    tus = {"Tus-Resumable": "1.0.0", "Upload-Length": "10"}
    assert page.request.post(team.server.url + "/api/uploads", headers=tus).status == 403
    asked = {"document_id": listed["id"], "question": "Why?", "stream": False}
    assert page.request.post(team.server.url + "/api/ask", data=asked).status == 403
    sent = page.request.patch(
        team.server.url + path, data={"title": "with token"}, headers={"X-CSRF-Token": csrf}
    )
    assert sent.status == 200, sent.text()


def test_an_admin_makes_a_user_and_adds_them_to_an_org(context: BrowserContext, team: Team) -> None:
    title = '<img src=x onerror="window.pwned=1">Moon notes'
    note = f"# \\{title}\n\nThe Moon pulls the oceans.\n".encode()  # \< keeps the tag text
    added = team.api("root").post("/api/documents", files={"file": ("moon.md", note)})
    assert added.status_code == 201, added.text
    document_id = added.json()["document"]["id"]
    page = signed_in(context, team, "root")
    page.goto(team.server.url + "/admin")
    page.wait_for_selector("body.ready")
    expect(page.locator(".user-row")).to_have_count(2)
    page.fill("#new-user", "carol")
    page.click("#create-user")
    shown = page.locator(".new-password code")
    expect(shown).to_be_visible()
    password = shown.inner_text()
    expect(page.locator('.user-row[data-user="carol"]')).to_have_count(1)
    page.select_option("#member-org", "acme")
    page.select_option("#member-user", "carol")
    page.select_option("#member-role", "member")
    page.click("#add-member")
    expect(page.locator('.user-row[data-user="carol"] .member-of')).to_have_text("acme (member)")
    expect(page.locator('.org-tree li[data-org="acme"] .member')).to_contain_text("carol")
    memberships = team.api("root").get("/api/admin/orgs").json()["memberships"]
    assert {"org": "acme", "user": "carol", "role": "member"} in memberships
    signed = httpx.post(
        team.server.url + "/api/login", json={"user": "carol", "password": password}
    )
    assert signed.status_code == 200  # the password shown once is carol's
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator(".new-password")).to_have_count(0)  # and is not shown again

    shown_document = page.locator(f'.admin-document[data-id="{document_id}"]')
    expect(shown_document).to_contain_text(title)  # the markup as text, never as HTML
    assert shown_document.locator("img").count() == 0
    assert page.evaluate("window.pwned") is None
    # The select shows "public" before its PUT is answered: wait for the answer, not the value.
    with page.expect_response(
        lambda r: r.request.method == "PUT" and "/visibility" in r.url
    ) as shared:
        shown_document.locator("select.visibility").select_option("public")
    assert shared.value.ok, (shared.value.status, shared.value.text())  # a refusal, not a wait
    expect(page.locator(f'.admin-document[data-id="{document_id}"] select')).to_have_value("public")
    listed = team.api("alice").get("/api/documents").json()["documents"]
    assert document_id in [d["id"] for d in listed]  # public now: alice sees it


def test_a_non_admin_gets_404_for_the_admin_page_and_api(
    context: BrowserContext, team: Team
) -> None:
    page = signed_in(context, team, "alice")
    response = page.goto(team.server.url + "/admin")
    assert response is not None and response.status == 404
    assert page.request.get(team.server.url + "/admin/admin.js").status == 404
    alice = team.api("alice")
    assert alice.get("/api/admin/users").status_code == 404
    assert alice.post("/api/admin/users", json={"user": "mallory"}).status_code == 404
    assert (
        alice.put("/api/admin/orgs/acme/members/alice", json={"role": "admin"}).status_code == 404
    )
