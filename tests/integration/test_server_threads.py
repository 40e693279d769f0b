"""Managing threads over HTTP: rename (``PATCH``), delete, export as Markdown, each private to
the asker (another user's thread is 404 to every route), and the original PDF shown inline
at a page for a quote card's "open in original"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from api_client import acting_as, api_client
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.types import Access

NOTES = (
    b"# Tides\n\nTides follow the Moon: its pull raises the sea twice a day.\n\n"
    b"## Spring tides\n\nSpring tides come at new and full Moon, when Sun and Moon line up.\n"
)
ALICE, BOB = Access(user="alice"), Access(user="bob")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def asked(client: TestClient, question: str, thread_id: str | None = None) -> dict[str, object]:
    """A document of notes uploaded (once) and a question asked about it: the answer JSON."""
    listed = client.get("/api/documents").json()["documents"]
    if listed:
        doc_id = listed[0]["id"]
    else:
        upload = client.post("/api/documents", files={"file": ("tides.md", NOTES)})
        doc_id = upload.json()["document"]["id"]
    body = {"document_id": doc_id, "question": question, "thread_id": thread_id, "stream": False}
    response = client.post("/api/ask", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_a_thread_is_renamed_and_listed_by_its_new_title(client: TestClient) -> None:
    thread_id = asked(acting_as(client, ALICE), "When do spring tides come?")["thread_id"]
    renamed = client.patch(f"/api/threads/{thread_id}", json={"title": "  Spring 潮汐 \n"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["title"] == "Spring 潮汐" and len(renamed.json()["turns"]) == 1
    assert client.get(f"/api/threads/{thread_id}").json()["title"] == "Spring 潮汐"
    blank = client.patch(f"/api/threads/{thread_id}", json={"title": "   "})
    assert blank.status_code == 400 and blank.json()["error"]["source"] == "title"
    too_long = client.patch(f"/api/threads/{thread_id}", json={"title": "x" * 2001})
    assert too_long.status_code == 413
    assert client.patch(f"/api/threads/{thread_id}", json={}).status_code in (400, 422)


def test_another_users_thread_is_not_found_to_every_route(client: TestClient) -> None:
    thread_id = asked(acting_as(client, ALICE), "What do tides follow?")["thread_id"]
    acting_as(client, BOB)
    assert client.patch(f"/api/threads/{thread_id}", json={"title": "Mine"}).status_code == 404
    assert client.get(f"/api/threads/{thread_id}/export").status_code == 404
    assert client.delete(f"/api/threads/{thread_id}").status_code == 404
    acting_as(client, ALICE)
    kept = client.get(f"/api/threads/{thread_id}").json()
    assert kept["title"] == "What do tides follow?" and len(kept["turns"]) == 1


def test_export_is_markdown_with_questions_quotes_and_places(client: TestClient) -> None:
    first = asked(client, "What do tides follow?")
    second = asked(client, "When do spring tides come?", str(first["thread_id"]))
    thread_id = first["thread_id"]
    client.patch(f"/api/threads/{thread_id}", json={"title": '../../etc/passwd "tides"'})
    response = client.get(f"/api/threads/{thread_id}/export")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    disposition = response.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="')
    name = disposition.split('filename="')[1].split('"')[0]
    assert name == "_.._etc_passwd _tides_.md"  # the title's characters, never a path
    text = response.text
    assert text.startswith('# ../../etc/passwd "tides"\n') and "Document: Tides" in text
    assert "## 1. What do tides follow?" in text and "## 2. When do spring tides come?" in text
    for answer in (first, second):
        for quote in answer["quotes"]:  # type: ignore[attr-defined]
            assert f"> {quote['text']}" in text
            section = " › ".join(quote["section_path"])
            assert f"> — [{quote['number']}] {section}" in text
    assert "How the answer was checked:" in text
    assert " · 2 questions\n" in text
    single = asked(client, "What do tides follow? Once more.")
    once = client.get(f"/api/threads/{single['thread_id']}/export").text
    assert " · 1 question\n" in once  # not "1 questions"


def test_an_original_pdf_is_shown_inline_only_when_asked(
    client: TestClient, evaldata: Path
) -> None:
    with (evaldata / "pdf/en_2col/N18-3011.pdf").open("rb") as handle:
        pdf = client.post("/api/documents", files={"file": ("paper.pdf", handle)})
    pdf_id = pdf.json()["document"]["id"]
    notes = client.post("/api/documents", files={"file": ("tides.md", NOTES)})
    notes_id = notes.json()["document"]["id"]
    shown = client.get(f"/api/documents/{pdf_id}/original?inline=true")
    assert shown.status_code == 200 and shown.headers["content-type"] == "application/pdf"
    assert shown.headers["content-disposition"].startswith("inline; filename=")
    assert shown.content.startswith(b"%PDF")
    saved = client.get(f"/api/documents/{pdf_id}/original")
    assert saved.headers["content-disposition"].startswith("attachment; filename=")
    markdown = client.get(f"/api/documents/{notes_id}/original?inline=true")
    assert markdown.headers["content-disposition"].startswith("attachment; filename=")
