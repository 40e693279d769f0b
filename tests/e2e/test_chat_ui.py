"""The chat page (``/chat.html``, issue 15) in real Chromium against a real server on real
documents (the PostgreSQL manual's SELECT page and a folder of its transaction pages as a
collection), offline: a two-part question streams its tool steps before the parts and the
final checked answer; a citation chip opens the reader with the cited span highlighted;
conversations are listed, renamed and deleted; a collection narrows what is asked; the
stop button aborts the stream; 429 and 401 are said in the turn; feedback sends exactly
the fixed payload; both UI languages, dark mode by its pixels, axe, and 800×600. Sources
are numbered 1..N in the order the answer first cites them, each names its document, and
no card shows the server's file paths (the documents were added by absolute path)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import httpx
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, Request, Route, expect
from samples import manual_folder

from askalong.server.chat_events import CHAT_EVENT_NAMES
from askalong.values.chat_answers import ToolName
from e2e.a11y import blocking
from e2e.conftest import entered_page
from e2e.live import LiveServer, add_by_cli, live_server
from e2e.pixels import screenshot

COLLECTION = "pg-transactions"
SELECT = "manuals/postgresql-15-html/sql-select.html"
TWO_PARTS = "What does SELECT DISTINCT do? And also what does the LIMIT clause do?"
PASSAGES = re.compile(r"^\d+ passages?$")
DARK, LIGHT = 60, 200  # mean grey (0-255) of the log's background


@pytest.fixture(scope="module")
def server(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of its own: SELECT's page, and the transaction pages as a collection."""
    root = tmp_path_factory.mktemp("e2e-chat")
    home = root / "home"
    add_by_cli(home, manual_folder(evaldata, root, COLLECTION), evaldata / SELECT)
    with live_server(home) as running:
        yield running


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    with entered_page(browser, server) as page:
        open_chat(page, server)
        yield page


def open_chat(page: Page, server: LiveServer, query: str = "") -> None:
    page.goto(f"{server.url}/chat.html{query}")
    page.wait_for_selector("body.ready")


def ask(page: Page, question: str) -> Any:
    """Types and sends `question`; returns the finished turn's locator (the new turn's, by
    its index: `.last` would find an earlier turn, done already, before the new one shows)."""
    turns = page.locator(".chat-turn")
    before = turns.count()
    page.fill("#chat-input", question)
    page.keyboard.press("Enter")
    expect(turns).to_have_count(before + 1)
    turn = turns.nth(before)
    expect(turn).to_have_attribute("data-state", "done", timeout=60_000)
    return turn


def chatted(server: LiveServer, question: str) -> dict[str, Any]:
    """A conversation started through the API (not streamed): the answer JSON."""
    body = {"question": question, "stream": False}
    response = httpx.post(f"{server.url}/api/chat", json=body, headers=server.headers, timeout=60)
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


# The order nodes and states appear in the log, whatever batches the events arrive in.
WATCH = """() => {
  window.seen = [];
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes" && r.target.dataset.state === "done") window.seen.push("done");
      for (const n of r.addedNodes) {
        if (n.classList?.contains("chat-step")) window.seen.push("step");
        if (n.classList?.contains("chat-part")) window.seen.push("part");
      }
    }
  }).observe(document.querySelector("#chat-log"),
    {subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"]});
}"""


def test_a_two_part_question_shows_its_steps_then_parts_then_the_checked_answer(
    page: Page,
) -> None:
    page.evaluate(WATCH)
    turn = ask(page, TWO_PARTS)
    seen: list[str] = page.evaluate("window.seen")
    assert seen.count("step") == 2 and seen.count("part") == 2, seen
    assert seen.index("step") < seen.index("part") < seen.index("done"), seen
    assert max(i for i, s in enumerate(seen) if s == "step") < seen.index("done")
    steps = turn.locator(".chat-step")
    expect(steps.nth(0)).to_contain_text("Searching: What does SELECT DISTINCT do?")
    expect(steps.nth(1)).to_contain_text("Searching: what does the LIMIT clause do?")
    for i in range(2):
        expect(steps.nth(i).locator(".chat-step-result")).to_have_text(PASSAGES)
    text = turn.locator(".chat-answer-text")
    expect(text).to_contain_text("DISTINCT")
    expect(text).to_contain_text("LIMIT")
    # Each part is answered with its own citation, each a chip with its verdict's tone.
    answer = text.inner_text()
    first, second = answer.split("2. ", 1)
    assert "[" in first and "[" in second, answer
    chips = text.locator("a.cite-chip")
    assert chips.count() >= 2
    for i in range(chips.count()):
        assert chips.nth(i).get_attribute("class") in {"cite-chip good", "cite-chip warn"}
    badges = turn.locator(".chat-source .badge")
    assert badges.count() >= 2
    assert set(badges.all_inner_texts()) <= {"Supported", "Partly supported", "Doubtful"}
    expect(page.locator(".conversation[aria-current='true']")).to_contain_text(
        "What does SELECT DISTINCT do?"
    )
    assert page.evaluate("location.search").startswith("?c=")


def test_a_citation_chip_opens_the_reader_with_the_span_highlighted(
    page: Page, server: LiveServer
) -> None:
    turn = ask(page, "What does SELECT DISTINCT do?")
    chip = turn.locator(".chat-answer-text a.cite-chip").first
    href = chip.get_attribute("href")
    assert href is not None and "#h=" in href
    with page.context.expect_page() as opened:
        chip.click()
    reader = opened.value
    reader.wait_for_selector("body.ready")
    params = reader.evaluate("Object.fromEntries(new URLSearchParams(location.hash.slice(1)))")
    document_id = reader.evaluate("new URLSearchParams(location.search).get('doc')")
    structure: dict[str, Any] = server.structure(document_id)
    block = next(b for b in structure["blocks"] if b["id"] == params["h"])
    cited = block["text"][int(params["hs"]) : int(params["he"])]
    expect(reader.locator(".hl").first).to_be_visible()
    assert reader.evaluate("window.askalong.highlightedText()") == cited
    number = chip.get_attribute("data-number")
    source = turn.locator(f".chat-source[data-number='{number}'] blockquote")
    assert cited.startswith(source.inner_text().rstrip("…"))
    reader.close()


def test_conversations_are_listed_renamed_and_deleted(page: Page, server: LiveServer) -> None:
    kept = chatted(server, "What does ROLLBACK do?")["conversation_id"]
    gone = chatted(server, "What does COMMIT do?")["conversation_id"]
    open_chat(page, server)
    items = page.locator(".conversation")
    first_two = [items.nth(0).get_attribute("data-id"), items.nth(1).get_attribute("data-id")]
    assert first_two == [gone, kept]  # newest first
    item = page.locator(f".conversation[data-id='{kept}']")
    item.get_by_role("button", name="Rename What does ROLLBACK do?").click()
    field = item.locator("input")
    expect(field).to_be_focused()
    field.fill("Undoing a transaction")
    field.press("Enter")
    expect(item.locator(".conversation-title")).to_have_text("Undoing a transaction")
    assert server.thread(kept).json()["title"] == "Undoing a transaction"
    doomed = page.locator(f".conversation[data-id='{gone}']")
    doomed.get_by_role("button", name="Delete What does COMMIT do?").click()
    expect(doomed.get_by_role("button", name="Keep")).to_be_focused()
    doomed.locator(".conversation-delete-confirm").click()
    expect(doomed).to_have_count(0)
    assert server.thread(gone).status_code == 404
    page.locator(f".conversation[data-id='{kept}'] .conversation-open").click()
    expect(page.locator(".chat-turn")).to_have_count(1)
    expect(page.locator(".chat-question")).to_have_text("What does ROLLBACK do?")
    expect(page.locator(".chat-answer-text a.cite-chip").first).to_be_visible()
    assert page.evaluate("location.search") == f"?c={kept}"
    page.locator("#new-conversation").click()
    expect(page.locator(".chat-turn")).to_have_count(0)
    expect(page.locator("#chat-input")).to_be_focused()


def test_a_chosen_collection_is_what_is_asked(page: Page, server: LiveServer) -> None:
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: _body(r, sent))
    page.get_by_label(COLLECTION).check()
    turn = ask(page, "What does SELECT DISTINCT do? And also what does ROLLBACK do?")
    collections = httpx.get(f"{server.url}/api/collections", headers=server.headers).json()
    (collection,) = collections["collections"]
    assert sent[-1]["collections"] == [collection["id"]]
    titles = turn.locator(".chat-source-title").all_inner_texts()
    assert titles and "SELECT" not in titles, titles  # only the collection's pages


def _body(request: Request, sent: list[dict[str, Any]]) -> None:
    if request.url.endswith("/api/chat") and request.method == "POST":
        sent.append(json.loads(request.post_data or "{}"))


# A stream that starts and then waits: the stop button must end it (the server's offline
# answer comes too fast to catch). The abort is noted where the test can read it.
HANGING = """() => {
  const real = window.fetch;
  window.fetch = (input, init) => {
    if (!String(input).endsWith("/api/chat")) return real(input, init);
    const lines = [
      'event: conversation\\ndata: {"conversation_id": "c0", "turn_id": "t0"}\\n\\n',
      'event: tool_call\\ndata: {"name": "search_knowledge", "arguments": {"query": "slow"}}\\n\\n',
    ];
    const body = new ReadableStream({ start(controller) {
      for (const line of lines) controller.enqueue(new TextEncoder().encode(line));
      init.signal.addEventListener("abort", () => {
        window.aborted = true;
        controller.error(new DOMException("stopped", "AbortError"));
      });
    } });
    const headers = { "Content-Type": "text/event-stream" };
    return Promise.resolve(new Response(body, { headers }));
  };
}"""


def test_the_stop_button_aborts_the_stream(page: Page) -> None:
    page.evaluate(HANGING)
    page.fill("#chat-input", "What does VACUUM do?")
    page.keyboard.press("Enter")
    stop = page.locator("#chat-stop")
    expect(page.locator(".chat-step")).to_contain_text("Searching: slow")
    expect(stop).to_be_focused()
    stop.press("Enter")  # keyboard reachable
    turn = page.locator(".chat-turn").last
    expect(turn).to_have_attribute("data-state", "stopped")
    expect(turn).to_contain_text("Stopped")
    assert page.evaluate("window.aborted") is True
    expect(stop).to_be_hidden()
    expect(page.locator("#chat-send")).to_be_enabled()


def test_refusals_are_said_in_the_turn(page: Page) -> None:
    def too_many(route: Route) -> None:
        error = {"type": "TooMany", "message": "too many questions at once", "source": "local"}
        body = json.dumps({"error": error, "retry_after": 7})
        route.fulfill(status=429, headers={"Retry-After": "7"}, body=body)

    page.route("**/api/chat", too_many)
    page.fill("#chat-input", "What does VACUUM do?")
    page.keyboard.press("Enter")
    expect(page.locator(".chat-turn .notice.error")).to_contain_text("try again in 7 s")
    page.unroute("**/api/chat")

    def unauthorized(route: Route) -> None:
        error = {"type": "Unauthorized", "message": "sign in first", "source": None}
        route.fulfill(status=401, body=json.dumps({"error": error}))

    page.route("**/api/chat", unauthorized)
    page.fill("#chat-input", "What does VACUUM do?")
    page.keyboard.press("Enter")
    failed = page.locator(".chat-turn").last
    expect(failed.locator(".notice.error")).to_contain_text("sign in first")
    expect(failed.get_by_role("link", name="Sign in")).to_have_attribute("href", "/login.html")


def test_feedback_sends_the_fixed_payload(page: Page) -> None:
    payloads: list[Any] = []

    def feedback(route: Route) -> None:
        payloads.append(route.request.post_data_json)
        route.fulfill(status=201, content_type="application/json", body='{"id": "f1"}')

    page.route("**/api/feedback", feedback)
    turn = ask(page, "What does SELECT DISTINCT do?")
    down = turn.get_by_role("button", name="Not helpful")
    down.click()
    expect(down).to_have_attribute("aria-pressed", "true")
    reason = turn.get_by_label("Why? (optional)")
    expect(reason).to_be_focused()
    reason.fill("It left out DISTINCT ON")
    turn.get_by_role("button", name="Send").click()
    expect(turn.locator(".chat-feedback-said")).to_have_text("Thank you: noted.")
    assert payloads == [
        {
            "conversation_id": turn.get_attribute("data-conversation"),
            "turn_id": turn.get_attribute("data-turn"),
            "rating": "down",
            "reason": "It left out DISTINCT ON",
        }
    ]
    second = ask(page, "What does the LIMIT clause do?")
    second.get_by_role("button", name="Helpful", exact=True).click()
    second.get_by_role("button", name="Send").click()
    expect(second.locator(".chat-feedback-said")).to_have_text("Thank you: noted.")
    assert payloads[1] == {
        "conversation_id": second.get_attribute("data-conversation"),
        "turn_id": second.get_attribute("data-turn"),
        "rating": "up",
    }
    assert payloads[1]["conversation_id"] == payloads[0]["conversation_id"]  # one conversation


def test_copy_and_export_each_answer(page: Page, server: LiveServer) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    turn = ask(page, "What does SELECT DISTINCT do?")
    turn.get_by_role("button", name="Copy").click()
    expect(turn.get_by_role("button", name="Copied")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(turn.locator(".chat-answer-text").inner_text().strip()[:40])
    assert "[" in copied and "SELECT" in copied
    export = turn.get_by_role("link", name="Export")
    conversation = turn.get_attribute("data-conversation")
    assert export.get_attribute("href") == f"/api/threads/{conversation}/export"
    with page.expect_download() as download:
        export.click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("# What does SELECT DISTINCT do?")


def test_the_chinese_ui(browser: Browser, server: LiveServer) -> None:
    with entered_page(browser, server, locale="zh-CN") as page:
        open_chat(page, server)
        assert page.evaluate("document.documentElement.lang") == "zh-Hans"
        expect(page.locator("#chat-send")).to_have_text("提问")
        expect(page.locator("#new-conversation")).to_have_text("新对话")
        expect(page.locator(".top-link[aria-current='page']")).to_have_text("对话")
        turn = ask(page, "SELECT DISTINCT 是做什么的？还有 LIMIT 子句呢？")
        expect(turn.locator(".chat-step").first).to_contain_text("检索：")
        expect(turn.locator(".chat-step-result").first).to_contain_text("段")
        expect(turn.locator(".chat-feedback button").first).to_have_attribute("title", "有帮助")
        expect(turn.get_by_role("button", name="复制")).to_be_visible()


def _log_grey(page: Page) -> float:
    pixels = screenshot(page.locator("#chat-log"))
    return float(np.asarray(pixels)[-40:, 10:-10].mean())  # below the last turn


def test_dark_mode_axe_and_the_library_link(page: Page, server: LiveServer) -> None:
    ask(page, TWO_PARTS)
    assert blocking(page) == []
    light = _log_grey(page)
    page.emulate_media(color_scheme="dark")
    dark = _log_grey(page)
    assert light > LIGHT and dark < DARK, (light, dark)
    assert blocking(page) == []
    page.get_by_role("link", name="Library").click()
    page.wait_for_url(f"{server.url}/")  # the chat page's body is `.ready` too: wait to leave it
    page.wait_for_selector("body.ready")
    assert page.evaluate("location.pathname") == "/"
    page.get_by_role("link", name="Chat", exact=True).click()
    page.wait_for_url("**/chat.html*")
    page.wait_for_selector("body.chat-page.ready")


def test_it_fits_and_works_by_keyboard_at_800_by_600(browser: Browser, server: LiveServer) -> None:
    with entered_page(browser, server, viewport=(800, 600)) as page:
        page.emulate_media(color_scheme="dark")
        open_chat(page, server)
        page.locator("#chat-input").focus()
        page.keyboard.type(TWO_PARTS)
        page.keyboard.press("Enter")
        turn = page.locator(".chat-turn").last
        expect(turn).to_have_attribute("data-state", "done", timeout=60_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 800
        log = page.evaluate(
            "(() => { const l = document.querySelector('#chat-log');"
            " return [l.scrollWidth, l.clientWidth]; })()"
        )
        assert log[0] <= log[1], log
        send = page.locator("#chat-send").bounding_box()
        assert send is not None and send["x"] + send["width"] <= 800
        assert send["y"] + send["height"] <= 600
        expect(page.locator(".conversation").first).to_be_in_viewport()
        assert blocking(page) == []
        page.locator("#chat-input").press("Shift+Tab")  # back to the log, then its chips
        focusable = page.evaluate(
            "[...document.querySelectorAll('.chat-turn a, .chat-turn button')]"
            ".every((e) => e.tabIndex >= 0)"
        )
        assert focusable


def test_the_chat_tables_are_keyed_by_the_server_names(page: Page) -> None:
    """A renamed chat event or tool on the server fails here, not silently in use."""
    script = """async (names) => {
      const m = await import("/chat/turn.js");
      const words = Object.fromEntries(names.map((name) => [name, m.stepWords(name, {})]));
      return {events: Object.keys(m.CHAT_TURN_EVENTS), words};
    }"""
    found = page.evaluate(script, list(get_args(ToolName)))
    assert found["events"] == list(CHAT_EVENT_NAMES)
    assert all(words != name for name, words in found["words"].items()), found["words"]


def test_a_thumb_on_a_chat_answer_is_stored_with_its_reason(page: Page, server: LiveServer) -> None:
    """The real round trip (no interception): the record the server kept for the turn."""
    turn = ask(page, "What does the OFFSET clause do?")
    turn.get_by_role("button", name="Not helpful").click()
    turn.get_by_label("Why? (optional)").fill("Say what OFFSET 0 means")
    turn.get_by_role("button", name="Send").click()
    expect(turn.locator(".chat-feedback-said")).to_have_text("Thank you: noted.")
    listed = httpx.get(f"{server.url}/api/feedback", headers=server.headers, timeout=30)
    listed.raise_for_status()
    mine = [f for f in listed.json()["feedback"] if f["turn_id"] == turn.get_attribute("data-turn")]
    assert [(f["rating"], f["reason"]) for f in mine] == [("down", "Say what OFFSET 0 means")]


# Answers over several documents (issue 30): numbers a reader can follow, named documents,
# no server path.
# The citation chips of each part as it streams in, before the answer replaces the parts.
WATCH_PART_CHIPS = """() => {
  window.partChips = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.classList?.contains("chat-part")) continue;
      for (const chip of n.querySelectorAll(".cite-chip")) window.partChips.push(chip.textContent);
    }
  }).observe(document.querySelector("#chat-log"), {subtree: true, childList: true});
}"""


def first_cited(numbers: list[str]) -> list[int]:
    return list(dict.fromkeys(int(n.strip("[]")) for n in numbers))


def test_sources_are_numbered_as_first_cited_and_name_their_documents(
    page: Page, server: LiveServer, evaldata: Path
) -> None:
    page.evaluate(WATCH_PART_CHIPS)
    turn = ask(page, TWO_PARTS)
    streamed: list[str] = page.evaluate("window.partChips")
    sources = turn.locator(".chat-source")
    count = sources.count()
    assert count >= 2
    numbers = [int(n) for n in sources.evaluate_all("ls => ls.map(l => l.dataset.number)")]
    assert numbers == list(range(1, count + 1))  # 1..N, no gap
    chips = turn.locator(".chat-answer-text .cite-chip").all_inner_texts()
    assert first_cited(chips) == numbers  # in the order the answer first cites them
    assert first_cited(streamed) == numbers  # the streamed parts showed the same numbers
    for item in sources.all():
        title = item.locator(".chat-source-title").inner_text()
        assert title and not title.startswith("/")
        expect(item.locator(".chat-source-where")).not_to_be_empty()  # its section
    shown = page.locator("body").inner_text()
    assert str(server.home.parent) not in shown and str(evaldata) not in shown


def test_the_collection_page_shows_no_server_path(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body.ready")
    page.locator(".collection-card a").first.click()
    page.wait_for_selector(".doc-card")
    metas = page.locator(".doc-card-meta").all_inner_texts()
    assert metas and all(m.startswith(f"{COLLECTION}/") for m in metas), metas
    assert str(server.home.parent) not in page.locator("body").inner_text()
