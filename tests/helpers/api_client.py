"""The in-process API client a script would be: the loopback address the server answers
to, and the install's token in the ``Authorization`` header."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from askalong.config import Settings
from askalong.server.app import create_app
from askalong.server.deps import current_access
from askalong.server.token import install_token
from askalong.types import Access

BASE_URL = "http://127.0.0.1:8000"


def token_headers(settings: Settings) -> dict[str, str]:
    return {"Authorization": f"Bearer {install_token(settings.home)}"}


def api_client(settings: Settings, app: FastAPI | None = None) -> TestClient:
    """A client of ``app`` (by default the app serving ``settings``), token included; use it
    as a context manager to run the app's startup and shutdown."""
    served = app or create_app(settings)
    return TestClient(served, base_url=BASE_URL, headers=token_headers(settings))


def acting_as(client: TestClient, access: Access) -> TestClient:
    """The client, its requests made as ``access`` from now on (the auth layer's seam)."""
    app = client.app
    assert isinstance(app, FastAPI)
    app.dependency_overrides[current_access] = lambda: access
    return client
