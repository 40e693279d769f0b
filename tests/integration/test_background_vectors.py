"""Vectors after an upload are the server's background embedder's (issue 25, §1): the
multipart upload answers without embedding, and the document gets its vectors soon after
all the same, embedded by the scripted OpenAI-style server."""

from __future__ import annotations

import time
from pathlib import Path

from api_client import api_client
from chat_server import ScriptedChatServer

from askalong.config import load_settings
from askalong.server.deps import ServerState

WAIT = 60.0  # seconds the background embedder may take: a hang, not a speed


def test_an_uploaded_document_gets_its_vectors_from_the_background_embedder(
    tmp_path: Path,
) -> None:
    with ScriptedChatServer(embedding_dimension=8) as embeddings:
        settings = load_settings(
            home=tmp_path / "home",
            embedder="openai",
            embed_base_url=embeddings.url,
            embed_model="scripted-embedder",
        )
        with api_client(settings) as client:
            note = b"# Valves\n\nThe red valve opens the cooling loop.\n"
            added = client.post("/api/documents", files={"file": ("valves.md", note)})
            assert added.status_code == 201, added.text
            document_id = added.json()["document"]["id"]
            state: ServerState = client.app.state.askalong  # type: ignore[attr-defined]
            vectors = state.library.indexes.vectors
            assert vectors is not None
            deadline = time.monotonic() + WAIT
            while document_id not in vectors.document_ids() and time.monotonic() < deadline:
                time.sleep(0.1)
            assert document_id in vectors.document_ids()
            found = client.get("/api/search", params={"q": "cooling loop"}).json()
            assert "vector" in found["routes"]
