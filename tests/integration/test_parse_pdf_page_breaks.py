"""A paragraph cut by a page break ("…is passed as an" | page number | "array to …") is one
block whose lines past the break carry their page, through the parser, the store and the
API (the reader lays each line on its own page: tests/e2e/test_page_break_highlight.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from samples import PAGE_BREAK_LINES, page_break_pdf

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.parse.pdf.parser import parse

SENTENCE = " ".join(PAGE_BREAK_LINES)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def test_the_paragraph_is_one_block_with_its_last_line_on_the_next_page() -> None:
    parsed = parse(page_break_pdf(), source="manual.pdf")
    [block] = [b for b in parsed.blocks if "passed as an" in b.text]
    assert block.text == SENTENCE and block.page == 1 and block.last_page == 2
    assert [box.page for box in block.boxes] == [None, None, None, 2]
    last = block.boxes[-1]
    assert block.text[last.start : last.end] == PAGE_BREAK_LINES[-1]
    [chunk] = [c for c in chunk_blocks("d", parsed.blocks) if "passed as an" in c.text]
    assert (chunk.page_start, chunk.page_end) == (1, 2)


def test_the_stored_block_keeps_each_line_on_its_page(client: TestClient) -> None:
    files = {"file": ("manual.pdf", page_break_pdf())}
    doc = client.post("/api/documents", files=files).json()["document"]
    blocks = client.get(f"/api/documents/{doc['id']}").json()["blocks"]
    [block] = [b for b in blocks if b["text"] == SENTENCE]
    assert block["page"] == 1
    assert [len(box) for box in block["boxes"]] == [6, 6, 6, 7]  # the page only past the break
    x0, top, _, _, start, end, page = block["boxes"][-1]
    assert (page, block["text"][start:end]) == (2, PAGE_BREAK_LINES[-1])
    assert (x0, top) == (72.0, pytest.approx(79.6, abs=0.1))  # the top of page 2
