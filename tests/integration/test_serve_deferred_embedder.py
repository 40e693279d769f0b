"""``askalong serve`` starts without loading the local model (issue 28: it held ~80 MB while
idle) and loads it at the first question, which is still answered from the vectors."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from api_client import api_client
from model_caches import seeded

from askalong.config import Settings, load_settings
from askalong.library import Library
from askalong.providers.budget import BudgetedEmbedder
from askalong.providers.deferred import DeferredEmbedder
from askalong.types import Access

TIDES = """# Tides

The spring tide at Saint-Malo rises thirteen metres, the highest in Europe.

# Harbours

The harbour gates close two hours after high water.
"""


def deferred(app_state: object) -> DeferredEmbedder:
    embedder = app_state.askalong.library.indexes.embedder  # type: ignore[attr-defined]
    assert isinstance(embedder, BudgetedEmbedder)
    assert isinstance(embedder.inner, DeferredEmbedder)
    return embedder.inner


@pytest.fixture
def embedded_home(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model_caches: Path
) -> tuple[Settings, str]:
    """A home whose one document has its vectors (the engine chosen and remembered), and
    that document's id."""
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    local = load_settings(home=seeded(settings.home, model_caches))
    path = tmp_path / "tides.md"
    path.write_text(TIDES, encoding="utf-8")
    with Library(local) as library:
        outcome = library.ingestor.add(str(path), Access.local())
        assert outcome.document is not None, outcome.error
        assert library.indexes.embed_pending().error is None
        assert library.indexes.pending_vectors() == []
    return local, outcome.document.id


def test_serve_loads_the_model_at_the_first_question(embedded_home: tuple[Settings, str]) -> None:
    home, document = embedded_home
    with api_client(home) as client:
        time.sleep(0.5)  # the background embedder's first round: nothing lacks vectors
        embedder = deferred(client.app.state)
        assert not embedder.is_loaded
        response = client.post(
            "/api/ask",
            json={
                "question": "How high is the spring tide?",
                "document_id": document,
                "stream": False,
            },
        )
        assert response.status_code == 200, response.text
        assert "thirteen metres" in response.json()["answer"]
        assert embedder.is_loaded
