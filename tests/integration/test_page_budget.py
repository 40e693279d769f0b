"""Page images are rendered under a pixel budget: an absurdly shaped page is refused with
a JSON 413 before any rendering, and ordinary pages of the same document still render."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from samples import sized_pdf

from askalong.config import Settings
from askalong.parse.pdf.render import MAX_PIXELS, MAX_WIDTH

LETTER = (612.0, 792.0)
NEEDLE = (1.0, 14400.0)  # the attack: 240 px wide, 3,456,000 px tall (6 GB to render)
RIBBON = (14400.0, 1.0)  # as wide the other way: a 1-pixel-high image, harmless
SCROLL = (100.0, 1000.0)  # fits when narrow, not at the widest stock width


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


@pytest.fixture
def doc_id(client: TestClient) -> str:
    pdf = sized_pdf(LETTER, NEEDLE, RIBBON, SCROLL)
    assert len(pdf) < 2000  # a small file is the whole attack
    response = client.post("/api/documents", files={"file": ("needle.pdf", pdf)})
    assert response.status_code == 201, response.text
    document: dict[str, object] = response.json()["document"]
    assert document["pages"] == 4
    return str(document["id"])


def png_size(content: bytes) -> tuple[int, int]:
    assert content[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(content[16:20], "big"), int.from_bytes(content[20:24], "big")


def test_a_needle_page_is_refused_as_json(
    client: TestClient, doc_id: str, settings: Settings
) -> None:
    response = client.get(f"/api/documents/{doc_id}/pages/2.png?width=240")
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert error["type"] == "TooLarge" and error["source"] == doc_id
    assert "page 2" in error["message"] and "megapixel" in error["message"]
    cached = settings.home / "cache" / "pages" / doc_id
    assert not list(cached.glob("2-*.png"))  # nothing rendered, nothing half-written


def test_ordinary_and_harmless_pages_of_the_same_document_still_render(
    client: TestClient, doc_id: str
) -> None:
    letter = client.get(f"/api/documents/{doc_id}/pages/1.png?width=240")
    assert letter.status_code == 200 and png_size(letter.content) == (240, 311)
    ribbon = client.get(f"/api/documents/{doc_id}/pages/3.png?width={MAX_WIDTH}")
    assert ribbon.status_code == 200 and png_size(ribbon.content) == (MAX_WIDTH, 1)


def test_a_tall_page_says_which_width_fits(client: TestClient, doc_id: str) -> None:
    narrow = client.get(f"/api/documents/{doc_id}/pages/4.png?width=960")
    width, height = png_size(narrow.content)
    assert narrow.status_code == 200 and width * height <= MAX_PIXELS
    wide = client.get(f"/api/documents/{doc_id}/pages/4.png?width={MAX_WIDTH}")
    assert wide.status_code == 413
    assert "at most 1800 px wide" in wide.json()["error"]["message"]
