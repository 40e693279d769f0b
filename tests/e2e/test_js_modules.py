"""The reader's pure JS modules, run in the real Chromium: each test imports a module from
the live server (``import()`` of the served file, under the real CSP) and calls it.

Also: the generated ``lib/contract.js`` as the browser reads it, the reader's own tables
keyed by the server's names, the thread state's rule (only a stored turn changes it), and
``destroy()`` taking the widgets' listeners away."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from askalong.asking.code_routes import FROM_CODE_ROUTES
from askalong.asking.question import INTENT_QUESTIONS
from askalong.ingest.archive import ARCHIVE_SUFFIXES
from askalong.ingest.inputs import DOCUMENT_SUFFIXES
from askalong.parse.code.languages import CODE_SUFFIXES
from askalong.parse.code.tokens import KIND_NAMES
from askalong.parse.progress import STAGES
from askalong.server.chat_events import CHAT_EVENT_NAMES
from askalong.server.sse import EVENT_NAMES
from askalong.server.upload_events import UPLOAD_EVENT_NAMES
from askalong.types import INTENTS, VERDICTS
from askalong.values.feedback import MAX_REASON_CHARS, RATINGS
from e2e.conftest import Library
from e2e.reader import drag_select, open_reader, pick_block, sentence_in


@pytest.fixture
def served(page: Page, library: Library) -> Page:
    """A page of the live server's origin, so modules import from it."""
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    return page


def run(page: Page, module: str, body: str, arg: Any = None) -> Any:
    """``body`` run as an async function of ``m`` (the imported module) and ``arg``."""
    script = f"async ([path, arg]) => {{ const m = await import(path); {body} }}"
    return page.evaluate(script, [module, arg])


# -- lib/sse.js ---------------------------------------------------------------------------


def test_parse_event_reads_name_and_json_data(served: Page) -> None:
    parse = "return arg.map((raw) => m.parseEvent(raw));"
    raws = [
        'event: thread\ndata: {"thread_id": "t1"}',
        "data:[1,\ndata: 2]",  # no space after the colon; data lines joined by "\n"
        ": keep-alive",
        "event: done",  # no data: nothing to yield
        "retry: 10\nid: 7\ndata: 3",
    ]
    assert run(served, "/lib/sse.js", parse, raws) == [
        {"event": "thread", "data": {"thread_id": "t1"}},
        {"event": "message", "data": [1, 2]},
        None,
        None,
        {"event": "message", "data": 3},
    ]


def test_read_events_splits_a_body_cut_anywhere(served: Page) -> None:
    read = """
      const bytes = new TextEncoder();
      const body = new ReadableStream({ start(c) {
        for (const chunk of arg) c.enqueue(bytes.encode(chunk));
        c.close();
      } });
      const events = [];
      for await (const event of m.readEvents(body)) events.push(event);
      return events;
    """
    chunks = [
        'event: quote\r\ndata: {"text": "中',
        '文"}\r\n\r\nevent: done\ndata: 2\n',
        "\ndata: 3",
    ]
    assert run(served, "/lib/sse.js", read, chunks) == [
        {"event": "quote", "data": {"text": "中文"}},
        {"event": "done", "data": 2},
        {"event": "message", "data": 3},  # the last one needs no blank line after it
    ]


# -- lib/offsets.js -----------------------------------------------------------------------

CONVERSIONS = """
  const t = arg;
  return {
    length: m.cpLength(t),
    units: [0, 1, 2, 3, 4].map((cp) => m.cpToUnits(t, cp)),
    cps: [0, 1, 3, 4, 5].map((u) => m.unitsToCp(t, u)),
    slice: m.cpSlice(t, 1, 3),
  };
"""


def test_code_points_and_utf16_units_differ_only_outside_the_bmp(served: Page) -> None:
    text = "a😀b中"  # "😀" is one code point, two UTF-16 units
    assert len(text) == 4
    assert run(served, "/lib/offsets.js", CONVERSIONS, text) == {
        "length": 4,
        "units": [0, 1, 3, 4, 5],
        "cps": [0, 1, 2, 3, 4],
        "slice": text[1:3],
    }
    assert run(served, "/lib/offsets.js", CONVERSIONS, "abc中e") == {
        "length": 5,
        "units": [0, 1, 2, 3, 4],
        "cps": [0, 1, 3, 4, 5],
        "slice": "bc",
    }


# -- reader/selection.js ------------------------------------------------------------------

SPANS = """
  const root = document.createElement("div");
  const seg = (block, start, end, text) => {
    const p = document.createElement("p");
    p.className = "seg";
    Object.assign(p.dataset, { block, start, end });
    p.append(text);
    root.append(p);
    return p.firstChild;
  };
  const hello = seg("b1", 0, 5, "Hello");
  seg("b1", 6, 11, "world");
  const astral = seg("b2", 0, 3, "a😀b");
  seg("b3", 0, 4, "tail");
  document.body.append(root);
  const range = document.createRange();
  range.setStart(hello, 1);
  range.setEnd(astral, 3);  // after "a😀": 3 UTF-16 units, 2 code points
  const spans = m.rangeToSpans(range, root);
  const texts = { b1: "Hello world", b2: "a😀b" };
  const described = m.describeSelection(spans, (id) => texts[id]);
  root.remove();
  return { spans, described };
"""


def test_range_to_spans_maps_a_dom_range_to_block_offsets(served: Page) -> None:
    found = run(served, "/reader/selection.js", SPANS)
    assert found["spans"] == [
        {"block_id": "b1", "start": 1, "end": 11},  # two segments of one block merge
        {"block_id": "b2", "start": 0, "end": 2},  # code points, not UTF-16 units
    ]
    assert found["described"] == {
        "block_id": "b1",
        "start": 1,
        "end": 11,
        "text": "ello world\na😀",
        "spans": found["spans"],
    }


# -- the contract, as the browser reads it --------------------------------------------------


def test_the_browser_reads_the_python_constants_from_contract_js(served: Page) -> None:
    exported = run(served, "/lib/contract.js", "return JSON.parse(JSON.stringify(m));")
    assert exported == {
        "INTENTS": list(INTENTS),
        "VERDICTS": list(VERDICTS),
        "INTENT_QUESTIONS": {intent: list(pair) for intent, pair in INTENT_QUESTIONS.items()},
        "EVENT_NAMES": list(EVENT_NAMES),
        "UPLOAD_EVENT_NAMES": list(UPLOAD_EVENT_NAMES),
        "CHAT_EVENT_NAMES": list(CHAT_EVENT_NAMES),
        "CODE_TOKEN_KINDS": list(KIND_NAMES),
        "PROGRESS_STAGES": list(STAGES),
        "DOCUMENT_SUFFIXES": sorted(DOCUMENT_SUFFIXES),
        "CODE_SUFFIXES": sorted(CODE_SUFFIXES),
        "ARCHIVE_SUFFIXES": list(ARCHIVE_SUFFIXES),
        "FEEDBACK_RATINGS": list(RATINGS),
        "FROM_CODE_ROUTES": sorted(FROM_CODE_ROUTES),
        "MAX_FEEDBACK_REASON_CHARS": MAX_REASON_CHARS,
    }
    assert run(served, "/lib/contract.js", "return Object.isFrozen(m.VERDICTS);") is True


# -- lib/from-code.js ------------------------------------------------------------------------


def test_an_answered_code_route_is_code_and_a_refusal_or_prose_is_not(served: Page) -> None:
    routes = [*sorted(FROM_CODE_ROUTES), None, "light"]
    answers = [{"status": "answered", "route": route} for route in routes]
    refused = {"status": "not_covered", "route": sorted(FROM_CODE_ROUTES)[0]}
    shown = run(
        served, "/lib/from-code.js", "return arg.map(m.writtenFromCode);", [*answers, refused]
    )
    assert shown == [True] * len(FROM_CODE_ROUTES) + [False, False, False]


def test_each_code_part_of_a_chat_answer_is_its_own_stretch(served: Page) -> None:
    code = {"status": "answered", "route": "code_graph", "answer": "f is called from:\n  g [1]"}
    prose = {"status": "answered", "route": None, "answer": "TRUNCATE empties a table. [2]"}
    text = f"1. Who calls f?\n{code['answer']}\n\n2. What does TRUNCATE do?\n{prose['answer']}"
    stretches = "return m.codeStretches(arg.text, arg.parts);"
    both = run(served, "/lib/from-code.js", stretches, {"text": text, "parts": [code, prose]})
    assert both == [
        {"text": "1. Who calls f?\n", "code": False},
        {"text": code["answer"], "code": True},
        {"text": f"\n\n2. What does TRUNCATE do?\n{prose['answer']}", "code": False},
    ]
    alone = run(served, "/lib/from-code.js", stretches, {"text": code["answer"], "parts": [code]})
    assert alone == [{"text": code["answer"], "code": True}]
    refusal = {"text": "Not covered.", "parts": [code]}  # a refusal's text stands for its parts
    assert run(served, "/lib/from-code.js", stretches, refusal) == [
        {"text": "Not covered.", "code": False}
    ]


# -- library/progress.js ----------------------------------------------------------------------


def test_an_uploads_progress_never_goes_back_within_a_stage(served: Page) -> None:
    # a sub-step restarting its count ("0 of 1" after "55 of 55") is not shown
    shown = run(
        served,
        "/library/progress.js",
        "const p = new m.UploadProgress(); const seen = [];"
        "for (const e of arg) { p.reading(e); seen.push(p.status.textContent); }"
        "return seen;",
        [
            {"stage": "parse", "done": 54, "total": 55},
            {"stage": "parse", "done": 55, "total": 55},
            {"stage": "parse", "done": 0, "total": 1},
            {"stage": "vectors", "done": 0, "total": 9},
        ],
    )
    assert shown == [
        "Reading pages: 54 of 55",
        "Reading pages: 55 of 55",
        "Reading pages: 55 of 55",
        "Preparing search: 0 of 9 passages",
    ]


def test_the_reader_tables_are_keyed_by_the_server_names(served: Page) -> None:
    """A renamed verdict, event or intent on the server fails here, not silently in use."""
    verdicts = run(served, "/panel/quotes-view.js", "return Object.keys(m.VERDICT_VIEW);")
    assert sorted(verdicts) == sorted(VERDICTS)
    handled = run(served, "/panel/turn-view.js", "return Object.keys(m.TURN_EVENTS);")
    assert set(handled) <= set(EVENT_NAMES) and "done" in handled
    quick = run(served, "/lib/intents.js", "return m.QUICK_INTENTS;")
    assert [q["id"] for q in quick] == list(INTENT_QUESTIONS)
    assert set(INTENT_QUESTIONS) <= set(INTENTS)
    assert all(q["label"] != q["id"] for q in quick), "an intent without a label"
    words = run(served, "/library/progress.js", "return Object.keys(m.PROGRESS_WORDS);")
    assert sorted(words) == sorted(STAGES)  # every stage the server reports has its words


def test_a_canned_question_is_left_to_its_intent_tag(served: Page) -> None:
    cases = [
        [INTENT_QUESTIONS["explain"][0], "explain"],
        [INTENT_QUESTIONS["compare"][1], "compare"],
        ["Why 42?", "explain"],
        [INTENT_QUESTIONS["explain"][0], "ask"],  # typed as a question, so shown
        ["", "example"],
    ]
    shown = run(
        served, "/lib/intents.js", "return arg.map(([q, i]) => m.shownQuestion(q, i));", cases
    )
    assert shown == [None, None, "Why 42?", INTENT_QUESTIONS["explain"][0], None]


# -- panel/thread-state.js ------------------------------------------------------------------

REPLAY = """
  let thread = m.newThread({ block_id: "b1", start: 0, end: 4, selected_text: "Text" });
  for (const event of arg) thread = m.afterEvent(thread, event);
  return thread;
"""
THREAD = {"event": "thread", "data": {"thread_id": "t9", "turn_id": "u1", "anchor": None}}
ANCHOR = {"block_id": "b1", "start": 0, "end": 4, "selected_text": "Text"}


def test_a_failed_ask_leaves_the_thread_as_it_was(served: Page) -> None:
    """The thread event comes before anything is stored: an error after it stores nothing."""
    error = {"event": "error", "data": {"type": "ProviderError", "message": "x"}}
    after = run(served, "/panel/thread-state.js", REPLAY, [THREAD, error])
    assert after == {"id": None, "anchor": ANCHOR, "turns": 0}


def test_only_a_stored_turn_gives_the_thread_its_id_and_counts(served: Page) -> None:
    done = {"event": "done", "data": {"answer": {"thread_id": "t9", "status": "answered"}}}
    events = [THREAD, {"event": "answer_delta", "data": {"text": "A"}}, done]
    after = run(served, "/panel/thread-state.js", REPLAY, events)
    assert after == {"id": "t9", "anchor": ANCHOR, "turns": 1}
    after = run(served, "/panel/thread-state.js", REPLAY, [*events, THREAD, done])
    assert after == {"id": "t9", "anchor": ANCHOR, "turns": 2}


def test_a_question_the_server_refuses_is_not_counted(page: Page, library: Library) -> None:
    """The real server refuses an anchor in a block the document does not have."""
    open_reader(page, library.server.url, library.ids["manual"])
    page.evaluate(
        "window.askalong.panel.start({ selection: { block_id: 'no-such-block', start: 0,"
        " end: 4, text: 'Text' }, question: 'What is this?', intent: null })"
    )
    expect(page.locator(".turn .notice.error")).to_contain_text("Could not answer")
    thread = page.evaluate("window.askalong.panel.thread")
    assert (thread["id"], thread["turns"]) == (None, 0)


# -- destroy() ------------------------------------------------------------------------------


def document_listeners(page: Page) -> list[str]:
    """The event types of the listeners on ``document`` and ``window`` (through CDP)."""
    cdp = page.context.new_cdp_session(page)
    types: list[str] = []
    for target in ("document", "window"):
        handle = cdp.send("Runtime.evaluate", {"expression": target})["result"]["objectId"]
        found = cdp.send("DOMDebugger.getEventListeners", {"objectId": handle})["listeners"]
        types.extend(sorted(f"{target}:{listener['type']}" for listener in found))
    cdp.detach()
    return types


def test_destroy_removes_the_widgets_listeners(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/reader.html")  # no document: no widgets mounted
    page.wait_for_selector("body.ready")
    bare = document_listeners(page)
    open_reader(page, library.server.url, library.ids["manual"])
    mounted = document_listeners(page)
    assert len(mounted) >= len(bare) + 5, mounted  # the ask box's and the watcher's
    page.evaluate("window.askalong.destroy()")
    assert document_listeners(page) == bare
    assert page.locator(".fab, .askbox, #document .seg, #panel > *").count() == 0


def test_after_destroy_a_selection_no_longer_shows_the_ask_button(
    page: Page, library: Library
) -> None:
    structure = library.server.structure(library.ids["manual"])
    target = sentence_in(pick_block(structure))
    open_reader(page, library.server.url, library.ids["manual"])
    drag_select(page, target)
    expect(page.locator(".fab")).to_be_visible()  # the watcher works before
    page.evaluate("window.fab = document.querySelector('.fab'); window.askalong.watcher.destroy()")
    page.evaluate("getSelection().removeAllRanges()")
    drag_select(page, target)
    # The watcher checks a tick (setTimeout 0) after mouseup: a later tick runs after it.
    page.evaluate("() => new Promise((tick) => setTimeout(tick, 0))")
    assert page.evaluate("window.fab.hidden") is True
    assert page.evaluate("window.askalong.selection()") is None
    assert page.locator(".fab").count() == 0
