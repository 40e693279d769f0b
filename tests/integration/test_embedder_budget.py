"""The shared embedder's budget with the real local model: a bulk embed in one thread
while another thread searches, which finishes within a bound; with no budget left a
search answers by keyword, saying so; a 20 MB query costs what one at the limit does."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from model_caches import seeded

from askalong.config import load_settings
from askalong.library import Library
from askalong.providers.budget import MAX_QUERY_CHARS, BudgetedEmbedder
from askalong.types import Access

NOTES = (
    "The Yangtze is the longest river in Asia, flowing for about 6,300 kilometres.\n\n"
    "Tides are caused by the gravitational pull of the moon and the sun on the oceans.\n"
)
LONG_PASSAGE = "Tides rise and fall twice a day along most coasts of the world. " * 15
QUESTION = "What causes the tides?"
BULK_CALL = 32  # passages per call of the bulk thread


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Iterator[Library]:
    home = seeded(tmp_path_factory.mktemp("budget"), model_caches)
    source = Path(home / "notes.txt")
    source.write_text(NOTES, encoding="utf-8")
    with Library(load_settings(home=home, embedder="local")) as opened:
        added = opened.ingestor.add(str(source), Access.local())
        assert added.status == "added", added.error
        opened.indexes.embed(opened.indexes.pending_vectors())
        yield opened


@pytest.fixture
def bulk(library: Library) -> Iterator[threading.Event]:
    """Another request embedding long passages without pause until the test ends."""
    embedder = library.indexes.embedder
    assert isinstance(embedder, BudgetedEmbedder)
    stop, running = threading.Event(), threading.Event()

    def embed_forever() -> None:
        while not stop.is_set():
            running.set()
            embedder.embed_passages([LONG_PASSAGE] * BULK_CALL)

    thread = threading.Thread(target=embed_forever, daemon=True)
    thread.start()
    running.wait(10)
    time.sleep(0.5)  # inside the first call
    yield stop
    stop.set()
    thread.join(120)


@pytest.fixture(scope="module")
def costs(library: Library) -> tuple[float, float]:
    """Seconds, measured here (the machine may be loaded): one long passage, one search."""
    embedder = library.indexes.embedder
    assert embedder is not None
    started = time.monotonic()
    embedder.embed_passages([LONG_PASSAGE])
    passage = time.monotonic() - started
    started = time.monotonic()
    library.searcher.search(QUESTION, Access.local())
    return passage, time.monotonic() - started


@pytest.mark.slow
def test_a_search_during_a_bulk_embed_gets_the_model_within_a_bound(
    library: Library,
    costs: tuple[float, float],
    bulk: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The query does not queue behind the bulk's passages (the bound is loose: the
    machine's other work slows everything here)."""
    passage, search = costs
    embedder = library.indexes.embedder
    monkeypatch.setattr(embedder, "query_wait", BULK_CALL * passage)
    started = time.monotonic()
    result = library.searcher.search(QUESTION, Access.local())
    elapsed = time.monotonic() - started
    assert result.routes == ("keyword", "vector")  # the query was embedded, not skipped
    assert result.hits
    bound = 2 * search + BULK_CALL / 4 * passage + 1.0
    assert elapsed < bound, f"the search took {elapsed:.1f} s (bound {bound:.1f} s)"


def test_with_no_budget_left_the_search_degrades_to_keyword(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = library.indexes.embedder
    assert isinstance(embedder, BudgetedEmbedder)
    # Every query slot taken, as by QUERY_SLOTS pathological queries running at once.
    taken = threading.BoundedSemaphore(1)
    taken.acquire()
    monkeypatch.setattr(embedder, "_queries", taken)
    monkeypatch.setattr(embedder, "query_wait", 0.2)
    # a question of its own: one the embedder remembers needs no slot and keeps its vector
    result = library.searcher.search(f"{QUESTION} (no slot left)", Access.local())
    assert result.routes == ("keyword",)
    assert any("embedder was busy" in note for note in result.notes)
    assert result.hits and {hit.mode for hit in result.hits} == {"keyword"}


def test_a_huge_query_costs_no_more_than_one_at_the_question_limit(library: Library) -> None:
    embedder = library.indexes.embedder
    assert embedder is not None
    at_limit = ("tides " * MAX_QUERY_CHARS)[:MAX_QUERY_CHARS]
    started = time.monotonic()
    embedder.embed_query(at_limit)
    bounded = time.monotonic() - started
    started = time.monotonic()
    huge = embedder.embed_query("tides " * 3_500_000)  # the 20 MB question
    assert time.monotonic() - started < 3 * bounded + 1.0
    assert huge.shape == (embedder.dimension,)
