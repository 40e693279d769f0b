"""An upload belongs to whoever ``current_access`` says is asking, not to the settings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_client import acting_as, api_client
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.types import Access

NOTES = b"# Tides\n\nTides follow the Moon.\n"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def uploaded(client: TestClient) -> dict[str, object]:
    response = client.post("/api/documents", files={"file": ("tides.md", NOTES)})
    assert response.status_code == 201, response.text
    document: dict[str, object] = response.json()["document"]
    return document


def listed(client: TestClient) -> list[object]:
    return [d["id"] for d in client.get("/api/documents").json()["documents"]]


def test_the_uploader_owns_the_upload(client: TestClient) -> None:
    document = uploaded(acting_as(client, Access(user="alice")))
    assert document["owner"] == "alice" and document["visibility"] == "private"
    assert listed(client) == [document["id"]]
    assert listed(acting_as(client, Access(user="bob"))) == []


def test_the_local_user_owns_by_default(client: TestClient) -> None:
    assert uploaded(client)["owner"] == "local"
