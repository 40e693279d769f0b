"""Ingestion jobs through the HTTP API: a finished tus upload is queued (document row and
job together) and read by the server's worker thread; with that thread off it waits for
`askalong worker`; the document JSON carries its job; retry queues it again."""

from __future__ import annotations

import threading
import time

import pytest
from api_client import api_client
from fastapi.testclient import TestClient

from askalong.config import Settings, load_settings
from askalong.jobs.worker import Worker
from askalong.library import Library

TUS = {"Tus-Resumable": "1.0.0"}
TEXT = b"# Pumps\n\nThe pump at station four feeds the cooling loop.\n"


def upload(client: TestClient, data: bytes = TEXT) -> str:
    """The whole file in one piece; the upload's URL."""
    created = client.post(
        "/api/uploads", headers={**TUS, "Upload-Length": str(len(data)), "Upload-Metadata": ""}
    )
    assert created.status_code == 201, created.text
    url = created.headers["Location"]
    piece = {**TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"}
    assert client.patch(url, content=data, headers=piece).status_code == 204
    return url


def listed_job(client: TestClient) -> dict[str, object]:
    (document,) = client.get("/api/documents").json()["documents"]
    job: dict[str, object] = document["job"]
    return job


def test_a_finished_upload_is_read_by_the_servers_worker(settings: Settings) -> None:
    with api_client(settings) as client:
        state = client.get(upload(client)).json()
        assert state["state"] == "added"
        job = listed_job(client)
        assert (job["state"], job["attempts"], job["error"]) == ("ready", 1, "")
        structure = client.get(f"/api/documents/{state['document_id']}").json()
        assert structure["document"]["job"]["state"] == "ready" and structure["blocks"]
        hits = client.get("/api/search", params={"q": "cooling loop"}).json()["hits"]
        assert hits and hits[0]["document_id"] == state["document_id"]


def test_with_the_worker_thread_off_the_upload_waits_for_a_worker(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_SERVE_WORKER", "false")
    quiet = load_settings(home=settings.home)
    with api_client(quiet) as client:
        url = upload(client)
        state = client.get(url).json()
        assert state["state"] == "complete" and state["document_id"]  # stored, not yet read
        assert listed_job(client)["state"] == "pending"
        with Library(quiet) as library:  # what `askalong worker` does, beside the server
            worker = Worker(library)
            try:
                assert worker.run(threading.Event(), once=True) == 1
            finally:
                worker.close()
        assert client.get(url).json()["state"] == "added"
        assert listed_job(client)["state"] == "ready"


def test_retry_queues_the_document_again_for_its_owner(settings: Settings) -> None:
    with api_client(settings) as client:
        document_id = client.get(upload(client)).json()["document_id"]
        retried = client.post(f"/api/documents/{document_id}/retry")
        assert retried.status_code == 200, retried.text
        job = retried.json()["job"]
        assert (job["state"], job["attempts"]) == ("pending", 0)
        deadline = time.monotonic() + 60
        while listed_job(client)["state"] != "ready" and time.monotonic() < deadline:
            time.sleep(0.1)
        job = listed_job(client)
        assert (job["state"], job["attempts"]) == ("ready", 1)
        assert client.post("/api/documents/ffffffffffffffff/retry").status_code == 404
