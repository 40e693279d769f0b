"""Quote cards and thread management in the reader: a quote's text is selectable (selecting
it does not jump away), Copy puts the quote with its page and section on the clipboard,
"Open original" opens the PDF at the quote's page; a thread is renamed in place, exported
as Markdown (a download named from its title) and deleted after a confirmation."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from e2e.conftest import Library, entered_page
from e2e.reader import open_reader

QUESTION = "How many nodes does the literature graph have?"


def opened_thread(page: Page, library: Library, question: str = QUESTION) -> dict[str, object]:
    """A question asked through the API, its thread opened from the Threads tab."""
    server, doc_id = library.server, library.ids["paper"]
    answer = server.ask(doc_id, question)
    open_reader(page, server.url, doc_id)
    page.locator(".tab", has_text="Threads").click()
    page.locator(f'.thread-item[data-id="{answer["thread_id"]}"]').click()
    expect(page.locator(".turn")).to_have_attribute("data-status", "answered")
    return answer


def test_a_quote_is_selectable_copied_with_its_place_and_opens_the_original(
    browser: Browser, library: Library
) -> None:
    with entered_page(browser, library.server) as page:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        answer = opened_thread(page, library)
        quote = answer["quotes"][0]  # type: ignore[index]
        card = page.locator(".quote-card").first
        text = card.locator("blockquote")
        # A two-sentence answer and its passage can push the first card below the panel's fold.
        text.scroll_into_view_if_needed()
        box = text.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 2, box["y"] + 6)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] - 4, box["y"] + box["height"] - 6, steps=6)
        page.mouse.up()
        selected = page.evaluate("getSelection().toString()")
        assert len(selected) > 20 and selected.split()[0] in quote["text"]
        assert page.evaluate("window.askalong.highlightedText()") == ""  # no jump

        card.locator(".quote-copy").click()
        expect(card.locator(".quote-copy")).to_have_text("Copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        where = f"p. {quote['page']}"
        if quote["section_path"]:
            where += " · " + " › ".join(quote["section_path"])
        assert copied == f"“{quote['text']}”\n— {where}"

        original = card.locator(".quote-original")
        href = original.get_attribute("href")
        doc_id = library.ids["paper"]
        assert href == f"/api/documents/{doc_id}/original?inline=true#page={quote['page']}"
        shown = page.request.get(library.server.url + href.split("#")[0])  # type: ignore[union-attr]
        assert shown.headers["content-type"] == "application/pdf"
        assert shown.headers["content-disposition"].startswith("inline;")

        card.locator(".quote-number").click()  # the number still shows it in the document
        assert page.evaluate("window.askalong.highlightedText()") == quote["text"]


def test_a_thread_is_renamed_exported_and_deleted(
    page: Page, library: Library, tmp_path: Path
) -> None:
    answer = opened_thread(page, library, "What are entity mentions?")
    thread_id = str(answer["thread_id"])
    bar = page.locator(".thread-bar")
    expect(bar.locator(".thread-name")).to_have_text("What are entity mentions?")

    bar.locator(".thread-rename").click()
    title = page.locator(".thread-title-input")
    expect(title).to_be_focused()
    title.fill("Mentions / 提及")
    title.press("Enter")
    expect(bar.locator(".thread-name")).to_have_text("Mentions / 提及")
    assert library.server.thread(thread_id).json()["title"] == "Mentions / 提及"

    with page.expect_download() as downloading:
        bar.locator(".thread-export").click()
    download = downloading.value
    assert download.suggested_filename == "Mentions _ 提及.md"
    saved = tmp_path / "thread.md"
    download.save_as(saved)
    markdown = saved.read_text(encoding="utf-8")
    assert markdown.startswith("# Mentions / 提及\n")
    assert "## 1. What are entity mentions?" in markdown
    for quote in answer["quotes"]:  # type: ignore[attr-defined]
        assert (
            f"> {quote['text']}" in markdown
            and f"[{quote['number']}] p. {quote['page']}" in markdown
        )

    bar.locator(".thread-delete").click()
    expect(bar.locator(".thread-confirm")).to_contain_text("Delete this thread")
    bar.locator(".thread-keep").click()  # changed its mind: nothing is deleted
    assert library.server.thread(thread_id).status_code == 200
    bar.locator(".thread-delete").click()
    bar.locator(".thread-delete-confirm").click()
    expect(page.locator(".turn")).to_have_count(0)
    expect(bar).to_be_hidden()
    assert library.server.thread(thread_id).status_code == 404
    page.locator(".tab", has_text="Threads").click()
    expect(page.locator("#panel")).not_to_contain_text("Loading threads")
    expect(page.locator(f'.thread-item[data-id="{thread_id}"]')).to_have_count(0)
