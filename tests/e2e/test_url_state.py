"""The reader's place in its address (reader/url-state.js): a reload comes back to the same
block at the top of the view and to the open thread and turn; Back and Forward move
between the threads shown; a question sent just before a reload is not lost (shown when
the server had stored it, sent again once when it had not: panel/pending.js)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from e2e.conftest import Library
from e2e.reader import AskRequests, open_reader, pick_block, wait_for_answer

QUESTIONS = {
    "paper": ("How many nodes does the literature graph have?", "What are entity mentions?"),
    "manual": ("What does DISTINCT do?", "What does the LIMIT clause do?"),
}


def top_block(page: Page) -> dict[str, Any]:
    place: dict[str, Any] = page.evaluate("window.askalong.urlState.topBlock()")
    return place


def hash_params(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        "Object.fromEntries(new URLSearchParams(location.hash.slice(1)))"
    )
    return found


def scroll_to_later_block(page: Page, structure: dict[str, Any]) -> None:
    """Into the document, somewhere not on its first screen, then settled into the URL."""
    if structure["document"]["format"] == "pdf":
        block = pick_block(structure, page=3, min_chars=60)
    else:
        block = pick_block(structure, after=len(structure["blocks"]) // 2)
    page.evaluate("(id) => window.askalong.highlight(id, 0, 1)", block["id"])
    page.locator("#reader-scroll").evaluate("(el) => el.scrollBy(0, 37)")
    page.wait_for_function(
        "() => new URLSearchParams(location.hash.slice(1)).get('b')"
        " === window.askalong.urlState.topBlock().block"
    )


# The reloaded reader has restored its place (reader.js sets `resumed` after restore()).
RESTORED = "() => window.askalong.resumed !== undefined"


# The address names the thread ``id`` (its entry pushed: Panel.open has shown its turns).
THREAD_IN_ADDRESS = "(id) => new URLSearchParams(location.hash.slice(1)).get('t') === id"


def open_thread_from_list(page: Page, thread_id: str) -> None:
    page.locator(".tab", has_text="Threads").click()
    page.locator(f'.thread-item[data-id="{thread_id}"]').click()
    # This thread's own entry: a turn shown "answered" may still be the thread before's.
    page.wait_for_function(THREAD_IN_ADDRESS, arg=thread_id)
    expect(page.locator(".turn").first).to_have_attribute("data-status", "answered")


@pytest.mark.parametrize("key", ["paper", "manual"])
def test_a_reload_comes_back_to_the_block_thread_and_turn(
    page: Page, library: Library, key: str
) -> None:
    server, doc_id = library.server, library.ids[key]
    first, second = QUESTIONS[key]
    asked = server.ask(doc_id, first)
    server.ask(doc_id, second, asked["thread_id"])
    open_reader(page, server.url, doc_id)
    scroll_to_later_block(page, server.structure(doc_id))  # type: ignore[arg-type]
    open_thread_from_list(page, asked["thread_id"])
    before = top_block(page)
    params = hash_params(page)
    assert params["b"] == before["block"] and params["turn"] == "1"
    assert abs(int(params.get("o", "0")) - before["offset"]) <= 1

    page.reload()
    page.wait_for_selector("body.ready")
    turns = page.locator(".turn")
    expect(turns).to_have_count(2)
    expect(turns.nth(1).locator(".question")).to_contain_text(second)
    # The reloaded address holds `b` from the start: wait for restore() to have run instead.
    page.wait_for_function(RESTORED)
    after = top_block(page)
    assert after["block"] == before["block"]
    assert abs(after["offset"] - before["offset"]) <= 2  # the same place, to the pixel


def test_back_and_forward_move_between_threads(page: Page, library: Library) -> None:
    server, doc_id = library.server, library.ids["paper"]
    one = server.ask(doc_id, QUESTIONS["paper"][0])["thread_id"]
    two = server.ask(doc_id, QUESTIONS["paper"][1])["thread_id"]
    open_reader(page, server.url, doc_id)
    open_thread_from_list(page, one)
    open_thread_from_list(page, two)
    question = page.locator(".turn .question")
    expect(question).to_contain_text(QUESTIONS["paper"][1])
    page.go_back()
    expect(question).to_contain_text(QUESTIONS["paper"][0])
    assert hash_params(page)["t"] == one
    page.go_back()
    expect(page.locator(".turn")).to_have_count(0)
    assert "t" not in hash_params(page)
    page.go_forward()  # each restore loaded before the next: two at once may land out of order
    expect(question).to_contain_text(QUESTIONS["paper"][0])
    page.go_forward()
    expect(question).to_contain_text(QUESTIONS["paper"][1])
    assert hash_params(page)["t"] == two


def test_two_quick_backs_end_on_the_second_ones_thread(page: Page, library: Library) -> None:
    """The first Back's thread comes back from the server after the second Back's: the
    panel still ends on the thread the address names."""
    server, doc_id = library.server, library.ids["paper"]
    one = server.ask(doc_id, QUESTIONS["paper"][0])["thread_id"]
    two = server.ask(doc_id, QUESTIONS["paper"][1])["thread_id"]
    three = server.ask(doc_id, "What is the literature graph?")["thread_id"]
    open_reader(page, server.url, doc_id)
    for thread in (one, two, three):
        open_thread_from_list(page, thread)

    def late(route: Route) -> None:
        page.wait_for_timeout(1500)
        route.continue_()

    page.route(f"**/api/threads/{two}", late)
    page.evaluate("() => { history.back(); setTimeout(() => history.back(), 50); }")
    page.wait_for_function(f"() => location.hash.includes('t={one}')")
    page.wait_for_timeout(2500)  # the late thread has come back by now
    expect(page.locator(".turn .question")).to_contain_text(QUESTIONS["paper"][0])
    assert hash_params(page)["t"] == one


# The question kept over a reload (panel/pending.js), and whether its turn shows a failure.
PENDING = "JSON.parse(sessionStorage.getItem('askalong:pending:' + doc) ?? 'null')"
FAILED = "[...document.querySelectorAll('.turn')].at(-1)?.querySelector('.notice.error') != null"
# What the page has seen of each cut request, so the reload comes after it (not a sleep).
ABORTED = f"(doc) => {FAILED} && {PENDING} !== null"
THREAD_EVENT_SEEN = f"(doc) => {PENDING}?.turn_id != null"
REFUSAL_SEEN = f"(doc) => {FAILED} && {PENDING} === null"


def follow_up_then_reload(
    page: Page, library: Library, cut: Any, seen: str
) -> tuple[str, AskRequests]:
    """A thread opened from its address, a follow-up typed, its request ``cut`` on the
    way (by a route handler), the page's state after it ``seen`` (a predicate of the
    document id) and the page reloaded; returns the thread and the asks seen from the
    reload on."""
    server, doc_id = library.server, library.ids["paper"]
    thread_id = server.ask(doc_id, QUESTIONS["paper"][0])["thread_id"]
    page.goto(f"{server.url}/reader.html?doc={doc_id}#t={thread_id}")
    expect(page.locator(".turn")).to_have_count(1)
    page.route("**/api/ask", cut)
    page.locator(".composer-input").fill(QUESTIONS["paper"][1])
    page.keyboard.press("Enter")
    page.wait_for_function(seen, arg=doc_id)
    page.unroute("**/api/ask")
    asks = AskRequests(page)
    page.reload()
    page.wait_for_selector("body.ready")
    return thread_id, asks


def stored_questions(library: Library, thread_id: str) -> list[str]:
    return [t["question"] for t in library.server.thread(thread_id).json()["turns"]]


def test_a_question_lost_on_the_way_is_sent_again_once(page: Page, library: Library) -> None:
    thread_id, asks = follow_up_then_reload(page, library, lambda route: route.abort(), ABORTED)
    expect(page.locator(".turn")).to_have_count(2)
    wait_for_answer(page)
    assert [b["question"] for b in asks.bodies] == [QUESTIONS["paper"][1]]
    assert asks.bodies[0]["thread_id"] == thread_id
    assert stored_questions(library, thread_id) == list(QUESTIONS["paper"])
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator(".turn")).to_have_count(2)
    page.wait_for_function(RESTORED)  # the reader has decided, rather than a fixed sleep
    assert page.evaluate("window.askalong.resumed") == "none"
    assert len(asks.bodies) == 1  # answered: not sent a third time


def first_event_only(route: Route) -> None:
    """The server answers and stores the turn; the page gets the ``thread`` event only."""
    response = route.fetch()
    first = response.text().split("\n\n")[0] + "\n\n"
    route.fulfill(status=200, headers=response.headers, body=first)


def test_a_question_stored_before_the_reload_is_shown_not_resent(
    page: Page, library: Library
) -> None:
    thread_id, asks = follow_up_then_reload(page, library, first_event_only, THREAD_EVENT_SEEN)
    turns = page.locator(".turn")
    expect(turns).to_have_count(2)
    expect(turns.nth(1).locator(".question")).to_contain_text(QUESTIONS["paper"][1])
    wait_for_answer(page)
    page.wait_for_function(RESTORED)
    assert page.evaluate("window.askalong.resumed") == "stored"
    assert asks.bodies == []
    assert stored_questions(library, thread_id) == list(QUESTIONS["paper"])
    assert not page.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('askalong:'))")


def refused(route: Route) -> None:
    """The server's answer to a request it will not take (as a too-long question gets)."""
    error = {"error": {"type": "TooLarge", "message": "the question is too long", "source": "q"}}
    route.fulfill(status=413, json=error)


def test_a_question_the_server_refused_is_not_sent_again(page: Page, library: Library) -> None:
    _, asks = follow_up_then_reload(page, library, refused, REFUSAL_SEEN)
    expect(page.locator(".turn")).to_have_count(1)
    page.wait_for_function(RESTORED)
    assert page.evaluate("window.askalong.resumed") == "none" and asks.bodies == []


# The address holds the zoom now shown (its write waits for the zoom to settle).
ZOOM_WRITTEN = """() => {
  const zoom = window.askalong.zoom.toHash();
  return zoom !== null && new URLSearchParams(location.hash.slice(1)).get("z") === zoom;
}"""


def test_the_zoom_survives_a_reload(page: Page, library: Library) -> None:
    """Zoomed in twice (a scale), then to a whole page: each is in the address (`z`) and a
    reload comes back to it."""
    open_reader(page, library.server.url, library.ids["paper"])
    assert "z" not in hash_params(page)  # fit width, the default, is not written
    page.click("#zoom-in")
    page.click("#zoom-in")
    level = page.locator("#zoom-level").text_content() or ""
    page.wait_for_function(ZOOM_WRITTEN)
    zoom = hash_params(page)["z"]
    assert float(zoom) > 0, zoom
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("#zoom-level")).to_have_text(level)
    assert page.evaluate("window.askalong.zoom.toHash()") == zoom
    expect(page.locator("#zoom-fit-width")).to_have_attribute("aria-pressed", "false")
    page.click("#zoom-fit-page")
    page.wait_for_function(ZOOM_WRITTEN)
    assert hash_params(page)["z"] == "fit-page"
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("#zoom-fit-page")).to_have_attribute("aria-pressed", "true")
