"""The reader and the library from the keyboard alone, in Chromium: every control reached by
Tab with a visible focus ring (upload included), the block cursor (j/k and the arrows, Shift
to extend, Enter to ask) giving the same selection and anchor a mouse drag gives, the ask
box keeping Tab inside and giving focus back on Esc, focus kept in the composer after
sending, and the `?` sheet listing the shortcuts, which never fire while typing."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import Library
from e2e.reader import AskRequests, Target, drag_select, open_reader, wait_for_answer

# What has focus: enough to tell the controls apart, and whether its ring shows (on the
# element, or on the label a visually hidden input sits in).
FOCUSED = """() => {
  const node = document.activeElement;
  const ringOf = (n) => {
    const style = getComputedStyle(n);
    return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  };
  const label = node.closest("label");
  return {
    id: node.id, tag: node.tagName.toLowerCase(), cls: node.className,
    name: node.getAttribute("aria-label") || (node.labels?.[0]?.textContent ?? "").trim()
      || node.textContent.trim().slice(0, 40),
    ring: ringOf(node) || (!!label && ringOf(label)),
  };
}"""


def tab_through(page: Page, presses: int) -> list[dict[str, Any]]:
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUSED))
    return seen


def focused(page: Page, selector: str) -> bool:
    return bool(page.evaluate("(s) => document.activeElement.matches(s)", selector))


def test_tab_reaches_every_library_control_upload_included(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/")
    expect(page.locator(".doc-card")).to_have_count(len(library.ids))
    # the top bar's page links (Library, Chat), the language switch, the upload, "Ask all
    # documents", the filter bar (search, kind, order), then per card its pick box, link
    # and Remove
    seen = tab_through(page, 9 + 3 * len(library.ids))
    assert "language" in [s["id"] for s in seen], seen
    upload = [s for s in seen if s["id"] == "file"]
    assert upload and upload[0]["name"] == "Upload", seen
    assert len([s for s in seen if s["cls"] == "doc-link"]) == len(library.ids)
    assert len([s for s in seen if s["name"].startswith("Remove ")]) == len(library.ids)
    assert all(s["ring"] for s in seen), [s for s in seen if not s["ring"]]


def test_tab_reaches_the_reader_document_and_panel(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    # past the outline sidebar's entries and the view bar (and round: the body between)
    seen = [s for s in tab_through(page, 80) if s["tag"] != "body"]
    ids = [s["id"] for s in seen]
    for control in ["toggle-outline", "search", "toggle-panel", "language", "reader-scroll"]:
        assert control in ids, seen
    assert {"Answer", "Threads", "New"} <= {s["name"] for s in seen}, seen
    assert all(s["ring"] for s in seen), [s for s in seen if not s["ring"]]


def cursor_selection(page: Page) -> dict[str, Any]:
    selection: dict[str, Any] = page.evaluate("window.askalong.keys.cursor.selection()")
    return selection


def framed(page: Page) -> list[str]:
    ids: list[str] = page.evaluate(
        "[...document.querySelectorAll('.block-cursor')].map((f) => f.dataset.block)"
    )
    return ids


@pytest.mark.parametrize("key", ["paper", "manual"])
def test_the_block_cursor_selects_and_asks_like_a_mouse_selection(
    page: Page, library: Library, key: str
) -> None:
    asked = AskRequests(page)
    open_reader(page, library.server.url, library.ids[key])
    page.keyboard.press("j")
    expect(page.locator(".block-cursor").first).to_be_visible()
    first = cursor_selection(page)
    page.keyboard.press("j")
    second = cursor_selection(page)
    assert second["block_id"] != first["block_id"]
    assert framed(page) == [second["block_id"]]
    assert focused(page, "#reader-scroll")  # the arrows work from here on
    page.keyboard.press("ArrowUp")
    assert cursor_selection(page)["block_id"] == first["block_id"]
    page.keyboard.press("ArrowDown")

    # the same block dragged over with the mouse: the same selection
    block = second["spans"][0]
    drag_select(page, Target(block["block_id"], block["start"], block["end"], second["text"]))
    expect(page.locator(".fab")).to_be_visible()
    assert page.evaluate("window.askalong.selection()") == second
    page.mouse.click(5, 300)  # away: the drag's selection ends

    page.keyboard.press("Shift+J")
    extended = cursor_selection(page)
    assert len(framed(page)) == 2 and framed(page)[0] == second["block_id"]
    assert len(extended["spans"]) == 2 and extended["spans"][0] == second["spans"][0]
    assert extended["text"].startswith(second["text"] + "\n")
    page.keyboard.press("Shift+K")
    assert cursor_selection(page) == second

    page.keyboard.press("Enter")
    askbox = page.locator(".askbox")
    expect(askbox).to_be_visible()
    expect(askbox.locator("textarea")).to_be_focused()
    page.locator(".askbox .chip", has_text="Explain").click()
    wait_for_answer(page)
    anchor = asked.bodies[0]["anchor"]
    assert anchor == {
        "block_id": second["block_id"],
        "start": second["start"],
        "end": second["end"],
        "selected_text": second["text"],
        "spans": [],  # one block: its span is the anchor's own
    }


def test_the_ask_box_keeps_tab_inside_and_esc_gives_focus_back(
    page: Page, library: Library
) -> None:
    open_reader(page, library.server.url, library.ids["manual"])
    page.keyboard.press("j")
    selected = cursor_selection(page)
    block = {**selected["spans"][0], "text": selected["text"]}
    page.keyboard.press("Enter")
    expect(page.locator(".askbox textarea")).to_be_focused()
    for key in ["Tab"] * 7 + ["Shift+Tab"] * 7:
        page.keyboard.press(key)
        assert focused(page, ".askbox *"), f"{key} left the ask box"
    page.keyboard.press("Escape")
    expect(page.locator(".askbox")).to_be_hidden()
    assert focused(page, "#reader-scroll")
    assert framed(page)  # Esc closed the box; the cursor stays for another try
    page.keyboard.press("Escape")
    assert framed(page) == []

    # opened with the mouse (the floating button hides as the box opens): back to the document
    drag_select(page, Target(block["block_id"], block["start"], block["end"], block["text"]))
    page.locator(".fab-ask").click()
    expect(page.locator(".askbox textarea")).to_be_focused()
    page.keyboard.press("Escape")
    assert focused(page, "#reader-scroll")


def test_focus_stays_in_the_composer_after_sending(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["manual"])
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    page.keyboard.type("What does this say?")
    page.keyboard.press("Enter")
    expect(page.locator(".askbox")).to_be_hidden()
    expect(page.locator(".composer-input")).to_be_focused()
    wait_for_answer(page)
    page.keyboard.type("And what follows?")
    page.locator(".composer-send").click()
    expect(page.locator(".turn")).to_have_count(2)
    expect(page.locator(".composer-input")).to_be_focused()
    wait_for_answer(page)


def test_the_shortcut_sheet_lists_the_keys_and_gives_focus_back(
    page: Page, library: Library
) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    page.locator("#toggle-panel").focus()
    page.keyboard.press("?")
    sheet = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(sheet).to_be_visible()
    keys = set(sheet.locator("kbd").all_text_contents())
    assert {"?", "j", "k", "Shift+j", "↓", "↑", "Enter", "Esc", "/", "Tab"} <= keys
    # The keys find and zoom handle themselves are on the sheet too.
    assert {"Ctrl+F", "Ctrl +", "Ctrl −", "Ctrl 0", "Ctrl+wheel"} <= keys
    page.keyboard.press("j")  # the sheet's keys are its own
    assert framed(page) == []
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    assert focused(page, "#toggle-panel")


def test_shortcuts_do_not_fire_while_typing(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    search = page.locator("#search")
    search.focus()
    page.keyboard.type("jk?/p")
    expect(search).to_have_value("jk?/p")
    assert framed(page) == []
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_have_count(0)
    assert not page.evaluate("document.body.classList.contains('panel-closed')")
    page.keyboard.press("ArrowDown")
    assert framed(page) == []
    # "/" from the page goes to the search box
    page.locator("#doc-title").click()
    page.keyboard.press("/")
    expect(search).to_be_focused()


def test_the_library_has_its_sheet_and_u_uploads(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    page.evaluate(
        "document.querySelector('#file').addEventListener('click', (e) => {"
        " window.chose = true; e.preventDefault(); })"  # the chooser itself is the browser's
    )
    page.keyboard.press("u")
    assert page.evaluate("window.chose === true")
    page.keyboard.press("?")
    sheet = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(sheet.locator("kbd")).to_have_text(["?", "u"])
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()


TYPING = """async () => {
  const m = await import("/lib/shortcuts.js");
  const make = (html) => { const box = document.createElement("div"); box.innerHTML = html;
    document.body.append(box); return box.firstElementChild; };
  const typing = ["<input>", "<input type=search>", "<textarea></textarea>",
    "<div contenteditable=true></div>", "<select></select>"].map((h) => m.isTyping(make(h)));
  const notTyping = ["<button></button>", "<input type=checkbox>", "<input type=file>",
    "<div tabindex=0></div>"].map((h) => m.isTyping(make(h)));
  const combos = [["j", false], ["J", true], ["?", true], ["ArrowDown", true], ["Enter", false]]
    .map(([key, shiftKey]) => m.comboOf(new KeyboardEvent("keydown", {key, shiftKey})));
  return {typing, notTyping, combos};
}"""


def test_what_counts_as_typing_and_how_keys_are_named(page: Page, library: Library) -> None:
    page.goto(library.server.url + "/")
    page.wait_for_selector("body.ready")
    found = page.evaluate(TYPING)
    assert found["typing"] == [True] * 5
    assert found["notTyping"] == [False] * 4
    assert found["combos"] == ["j", "J", "?", "Shift+ArrowDown", "Enter"]


def test_a_goes_to_the_question_box_not_the_tabs_above_it(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["manual"])
    page.locator("#reader-scroll").focus()
    page.keyboard.press("a")
    expect(page.locator(".composer-input")).to_be_focused()


def test_the_outline_is_one_tab_stop_walked_with_the_arrows(page: Page, library: Library) -> None:
    open_reader(page, library.server.url, library.ids["paper"])
    items = page.locator(".outline-item")
    assert items.count() > 5
    items.first.focus()
    page.keyboard.press("ArrowDown")
    second = page.locator(".outline-item").nth(1)
    expect(second).to_be_focused()
    page.keyboard.press("End")
    expect(items.last).to_be_focused()
    page.keyboard.press("Tab")  # out of the outline at once, not through every heading
    assert not focused(page, ".outline-item")
    assert page.locator(".outline-item[tabindex='0']").count() == 1
