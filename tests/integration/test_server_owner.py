"""An upload belongs to whoever ``current_access`` says is asking, not to the settings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_client import api_client
from fastapi import FastAPI
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.server.deps import current_access
from askalong.types import Access

NOTES = b"# Tides\n\nTides follow the Moon.\n"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def acting_as(client: TestClient, access: Access) -> TestClient:
    """The client, its requests made as ``access`` from now on (the auth layer's seam)."""
    app = client.app
    assert isinstance(app, FastAPI)
    app.dependency_overrides[current_access] = lambda: access
    return client


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
