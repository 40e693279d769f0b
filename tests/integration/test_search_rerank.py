"""The reranker slot: a real ``/rerank`` endpoint (scripted, on localhost) reorders the
fused candidates; when it fails, fusion and its thresholds decide."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.config import Settings
from askalong.library import Library
from askalong.types import Access

GUIDE = """# Garden guide

## Tomatoes

Tomatoes need full sun, deep watering and a stake to climb. Pinch the side shoots of tomatoes.

## Roses

Roses like rich soil; prune roses in late winter, just above an outward-facing bud.

## Compost

Compost turns kitchen scraps and leaves into humus; turn the compost heap every few weeks.
"""


@pytest.fixture
def server() -> Iterator[ScriptedChatServer]:
    with ScriptedChatServer() as scripted:
        yield scripted


@pytest.fixture
def library(settings: Settings, server: ScriptedChatServer, tmp_path: Path) -> Iterator[Library]:
    reranked = dataclasses.replace(settings, rerank_base_url=server.url, rerank_model="rr")
    with Library(reranked) as opened:
        path = tmp_path / "guide.md"
        path.write_text(GUIDE, encoding="utf-8")
        outcome = opened.ingestor.add(str(path), Access.local())
        assert outcome.status == "added"
        yield opened


def _sections(library: Library, hits: tuple) -> list[str]:  # type: ignore[type-arg]
    return [library.store.chunk(h.chunk_id).section_path[-1] for h in hits]


def test_the_reranker_reorders_and_drops_low_scores(
    library: Library, server: ScriptedChatServer
) -> None:
    fused = library.searcher.ranking("tomatoes roses compost", Access.local())
    assert len(fused) == 3
    # Scores in the order the candidates are sent: reverse them, and drop the middle one.
    server.script_rerank(Reply.rerank([0.2, 0.05, 0.9]))
    result = library.searcher.search("tomatoes roses compost", Access.local())
    assert "rerank" in result.routes
    order = _sections(library, tuple(fused))
    assert _sections(library, result.hits) == [order[2], order[0]]
    assert [h.rerank_score for h in result.hits] == [0.9, 0.2]
    sent = [r.body for r in server.requests if r.path.endswith("/rerank")]
    assert sent[-1]["query"] == "tomatoes roses compost" and len(sent[-1]["documents"]) == 3


def test_a_failing_reranker_falls_back_to_fusion(
    library: Library, server: ScriptedChatServer
) -> None:
    server.script_rerank(*[Reply.error(500, "down")] * 5)
    result = library.searcher.search("prune roses", Access.local())
    assert "rerank" not in result.routes
    assert any("reranking skipped" in note for note in result.notes)
    assert _sections(library, result.hits)[0] == "Roses"
