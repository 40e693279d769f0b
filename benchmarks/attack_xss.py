"""The attack suite's ``xss`` section (issue 11, "the suite"): hostile content in Chromium.

Each case is a document (HTML, Markdown, plain text) built from random payloads — a
script, event handlers, ``javascript:`` URLs, SVG ``onload``, an iframe ``srcdoc`` — put in
its title, its headings, its sentences and its file name, both as live markup and as text
that reads like markup. Every payload that ran would set ``window.__pwned``. The document is
uploaded to a real ``askalong serve`` and shown in headless Chromium everywhere its text
goes: the library list, the reader, a thread asked through the API (its question a
payload) opened from the Threads tab (question, answer, quotes), and a follow-up typed in
the composer. A case fails when ``window.__pwned`` is set, a dialog opens, the page throws,
or any element of the page carries an event-handler attribute, a ``javascript:`` URL, an
inline script or an iframe (markup that got in, whether or not the Content-Security-Policy
then stopped it). A canary planted by the run itself checks that the detector sees it.

``tests/e2e/test_xss.py`` runs one document per format with every payload, as a fast sample.
"""

from __future__ import annotations

import random
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Dialog, Page, expect, sync_playwright

from attack_common import Row
from e2e.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server
from e2e.reader import open_reader

PAYLOADS = (
    "<script>window.__pwned='script'</script>",
    "<img src=x onerror=\"window.__pwned='img'\">",
    "<svg onload=\"window.__pwned='svg'\"><circle r=1 /></svg>",
    "<svg><script>window.__pwned='svg-script'</script></svg>",
    "<a href=\"javascript:window.__pwned='href'\">a link</a>",
    "<iframe srcdoc=\"<script>parent.__pwned='iframe'</script>\"></iframe>",
    "<body onload=\"window.__pwned='body'\">",
    "<details open ontoggle=\"window.__pwned='toggle'\">x</details>",
    "\"><img src=x onerror=window.__pwned='attr'>",
    "javascript:window.__pwned='bare'",
    "[click](javascript:window.__pwned='md-link')",
    "![pic](x\" onerror=\"window.__pwned='md-img')",
)
FORMATS = ("html", "markdown", "text")
VIEWS = ("library", "reader", "thread", "follow-up")
QUESTION = "What does the tide report say?"
FOUND = """() => {
  const bad = [];
  for (const node of document.querySelectorAll("*")) {
    for (const attr of node.attributes) {
      if (/^on/i.test(attr.name) || /^\\s*javascript:/i.test(attr.value))
        bad.push(`${node.tagName} ${attr.name}=${attr.value.slice(0, 40)}`);
    }
    if (["IFRAME", "OBJECT", "EMBED"].includes(node.tagName)) bad.push(node.tagName);
    if (node.tagName === "SCRIPT" && !node.src) bad.push("inline SCRIPT");
  }
  return {pwned: window.__pwned ?? null, bad};
}"""


@dataclass(frozen=True)
class HostileDocument:
    name: str
    data: bytes


def hostile_document(fmt: str, payloads: list[str], rng: random.Random) -> HostileDocument:
    """A document whose every part carries payloads; its sentences mention the tide report
    so the question finds them."""
    pick = rng.choice
    sentences = [f"The tide report says {p} twice a day." for p in payloads]
    name = f"tide {pick(payloads)}".replace("/", "|")[:120]
    if fmt == "html":
        escaped = [s.replace("&", "&amp;").replace("<", "&lt;") for s in sentences]
        body = "".join(f"<p>{s}</p><p>{e}</p>" for s, e in zip(sentences, escaped, strict=True))
        title = pick(payloads).replace("<", "&lt;")
        page = f"<html><head><title>{title}</title></head><body><h1>{pick(payloads)}</h1>"
        return HostileDocument(f"{name}.html", f"{page}{body}</body></html>".encode())
    if fmt == "markdown":
        text = f"# Tides {pick(payloads)}\n\n" + "\n\n".join(sentences) + "\n"
        return HostileDocument(f"{name}.md", text.encode())
    text = f"Tides {pick(payloads)}\n\n" + "\n\n".join(sentences) + "\n"
    return HostileDocument(f"{name}.txt", text.encode())


def upload(server: LiveServer, document: HostileDocument) -> str:
    response = httpx.post(
        server.url + "/api/documents",
        files={"file": (document.name, document.data)},
        headers=server.headers,
        timeout=120,
    )
    response.raise_for_status()
    document_id: str = response.json()["document"]["id"]
    return document_id


def ask_through_api(server: LiveServer, document_id: str, payload: str) -> str:
    response = httpx.post(
        server.url + "/api/ask",
        json={"document_id": document_id, "question": f"{QUESTION} {payload}", "stream": False},
        headers=server.headers,
        timeout=120,
    )
    response.raise_for_status()
    thread_id: str = response.json()["thread_id"]
    return thread_id


def found(page: Page, view: str) -> list[str]:
    """What ran or got in on ``page`` now, each named with ``view``."""
    seen = page.evaluate(FOUND)
    problems = [f"{view}: window.__pwned = {seen['pwned']!r}"] if seen["pwned"] else []
    return problems + [f"{view}: {bad}" for bad in seen["bad"][:3]]


def views_problems(page: Page, server: LiveServer, document_id: str, payload: str) -> list[str]:
    """The document in every view its text reaches; what ran or got in."""
    thread_id = ask_through_api(server, document_id, payload)
    page.goto(server.url + "/")
    expect(page.locator(f'.doc-card[data-id="{document_id}"]')).to_be_visible()
    problems = found(page, "library")
    open_reader(page, server.url, document_id)
    problems += found(page, "reader")
    page.locator(".tab", has_text="Threads").click()
    page.locator(f'.thread-item[data-id="{thread_id}"]').click()
    expect(page.locator(".turn")).to_have_count(1)
    expect(page.locator(".turn .quote-card").first).to_contain_text("tide report says")
    problems += found(page, "thread")
    page.locator(".composer-input").fill(f"And the tide report? {payload}")
    page.keyboard.press("Enter")
    expect(page.locator(".turn")).to_have_count(2)
    last = page.locator(".turn").last
    expect(last).to_have_attribute("data-status", re.compile(r"^(answered|not_covered)$"))
    return problems + found(page, "follow-up")


def case_problems(browser: Browser, server: LiveServer, document: HostileDocument) -> list[str]:
    """One document through every view, in a fresh context entered with the token."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    events: list[str] = []
    page.on("pageerror", lambda exc: events.append(f"script error: {exc}"))
    page.on("dialog", lambda dialog: _dismissed(dialog, events))
    page.goto(server.entry("/"))
    document_id = upload(server, document)
    try:
        payload = PAYLOADS[len(document.data) % len(PAYLOADS)]
        return views_problems(page, server, document_id, payload) + events
    finally:
        context.close()
        # the library is left as it was (the e2e suite counts its documents)
        url = f"{server.url}/api/documents/{document_id}"
        httpx.delete(url, headers=server.headers, timeout=30).raise_for_status()


def _dismissed(dialog: Dialog, events: list[str]) -> None:
    events.append(f"dialog: {dialog.message}")
    dialog.dismiss()


def check_the_detector(browser: Browser, server: LiveServer) -> None:
    """Markup planted by the run itself must be seen, or a clean run would mean nothing."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.entry("/"))
        page.evaluate(
            "() => { const i = document.createElement('img');"
            " i.setAttribute('onerror', 'x'); document.body.append(i); window.__pwned = 'canary'; }"
        )
        if len(found(page, "canary")) != 2:
            raise AssertionError("the XSS detector missed the canary: its results mean nothing")
    finally:
        context.close()


def xss(seconds: float, rng: random.Random) -> Row:
    row = Row("xss")
    placements = 0
    with (
        tempfile.TemporaryDirectory() as scratch,
        live_server(Path(scratch) / "home") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        check_the_detector(browser, server)
        deadline = time.perf_counter() + seconds  # the budget is for cases, not start-up
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            payloads = rng.sample(PAYLOADS, rng.randint(1, 5))
            document = hostile_document(rng.choice(FORMATS), payloads, rng)
            problems = case_problems(browser, server, document)
            row.record(started, f"{document.name!r}: {problems[0]}" if problems else None)
            placements += len(payloads) * len(VIEWS)
        browser.close()
    row.note = f"{placements} payload placements, each seen in the {', '.join(VIEWS)} views"
    return row
