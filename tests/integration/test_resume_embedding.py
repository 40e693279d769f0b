"""Embedding resumes when the server starts (issue 11, item 11): documents stored but not
embedded (a server killed before its vectors were done, or `add --no-embed`) get their
vectors without another upload."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from api_client import api_client
from click.testing import CliRunner
from model_caches import seeded

from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.server.deps import ServerState
from askalong.types import Access


@pytest.fixture
def embedding(settings: Settings, monkeypatch: pytest.MonkeyPatch, model_caches: Path) -> Settings:
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    return load_settings(home=seeded(settings.home, model_caches))


def test_the_server_embeds_what_was_left_when_it_starts(
    embedding: Settings, tmp_path: Path
) -> None:
    note = tmp_path / "note.md"
    note.write_text(
        "# Valves\n\nThe red valve opens the cooling loop.\n\n## 使用\n\n先关闭阀门。\n"
    )
    added = CliRunner().invoke(
        main, ["add", str(note), "--no-embed", "--json"], catch_exceptions=False
    )
    assert added.exit_code == 0, added.output
    with api_client(embedding) as client:
        state: ServerState = client.app.state.askalong  # type: ignore[attr-defined]
        (document,) = state.library.store.list_documents(Access.local())
        deadline = time.monotonic() + 90
        vectors = state.library.indexes.vectors
        assert vectors is not None
        while document.id not in vectors.document_ids() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert document.id in vectors.document_ids()
        found = client.get("/api/search", params={"q": "cooling loop"}).json()
        assert "vector" in found["routes"] and not any("no vectors" in n for n in found["notes"])
