"""Contextual descriptions (issue 16) against the scripted chat-completions server: one
call per 8 chunks of a document, the descriptions stored beside the chunks, the offline
fallback (and its warning) for a batch whose reply is broken, the keyword route finding a
chunk by a word only its description has, the vector route embedding description + text,
and no description word in an answer's quotes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from chat_server import Reply, ScriptedChatServer
from click.testing import CliRunner
from describing import describe_request

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.library import Library
from askalong.types import Access, Chunk
from askalong.wire import chat_json

SECTIONS = (
    ("Water", "Use soft water with little chlorine for pale beers."),
    ("Malt", "Crush the malt coarsely so that the husks stay whole."),
    ("Mash", "Hold the mash at 66 degrees for one hour."),
    ("Ferment", "Keep the brewing temperature at 18 degrees for a week."),
    ("Hops", "Add bittering hops at the start of the boil."),
    ("Yeast", "Pitch the yeast once the wort has cooled."),
    ("Bottling", "Prime each bottle with a little sugar."),
    ("Cleaning", "Sanitise every surface the cooled wort touches."),
    ("Storage", "Store the bottles upright in a dark room."),
    ("Serving", "Pour slowly, leaving the sediment in the bottle."),
)
INTRO = "This guide takes a first batch of beer from water to glass."
GUIDE = f"# Home Brewing Guide\n\n{INTRO}\n\n" + "".join(f"## {h}\n\n{t}\n\n" for h, t in SECTIONS)
TEXTS = (INTRO, *(t for _, t in SECTIONS))  # a chunk each: the introduction, then a section
FERMENT = 4  # the chunk found by its description alone
ONLY_DESCRIBED = "zymurgy"  # in that chunk's description, in no chunk's text or title
FIRST_BATCH = ["Home Brewing Guide, its introduction."] + [
    f"Home Brewing Guide, section {h}." for h, _ in SECTIONS[:7]
]
FIRST_BATCH[FERMENT] = "Home Brewing Guide: the zymurgy of fermentation temperature."


@dataclass(frozen=True)
class Added:
    server: ScriptedChatServer
    library: Library
    notices: tuple[str, ...]
    chunks: tuple[Chunk, ...]


def described_settings(home: Path, server: ScriptedChatServer, **more: str) -> Settings:
    """Descriptions on, by the scripted server's chat model."""
    return load_settings(
        home=home, llm_base_url=server.url, llm_model="describer", context_descriptions=True, **more
    )


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Added]:
    folder = tmp_path_factory.mktemp("descriptions")
    guide = folder / "guide.md"
    guide.write_text(GUIDE, encoding="utf-8")
    with ScriptedChatServer(embedding_dimension=64, word_vectors=True) as server:
        server.script(Reply.json({"descriptions": FIRST_BATCH}), Reply.malformed())
        embedded = {"embed_base_url": server.url, "embed_model": "scripted-embedder"}
        settings = described_settings(folder / "home", server, embedder="openai", **embedded)
        with Library(settings) as library:
            outcome = library.ingestor.add(str(guide), Access.local())
            assert outcome.document is not None, outcome.error
            report = library.indexes.embed_pending()
            assert report.error is None
            chunks = library.store.chunks(outcome.document.id)
            yield Added(server, library, outcome.document.notices, chunks)


def test_one_call_per_eight_chunks(added: Added) -> None:
    assert len(added.chunks) == len(TEXTS)
    calls = added.server.chat_requests
    assert len(calls) == 2  # chunks 1-8, then 9-11
    first, second = (c.body["messages"][-1]["content"] for c in calls)
    assert first.count("<<<PASSAGE ") == 8 and second.count("<<<PASSAGE ") == 3
    assert TEXTS[FERMENT] in first and TEXTS[9] in second  # the texts, fenced


def test_the_descriptions_are_stored_beside_the_chunks(added: Added) -> None:
    assert [c.description for c in added.chunks[:8]] == FIRST_BATCH
    assert all(t in c.text for c, t in zip(added.chunks, TEXTS, strict=True))
    assert ONLY_DESCRIBED not in " ".join(c.text for c in added.chunks)


def test_a_broken_reply_falls_back_to_title_and_section_with_a_warning(added: Added) -> None:
    assert [c.description for c in added.chunks[8:]] == [
        "Home Brewing Guide > Cleaning",
        "Home Brewing Guide > Storage",
        "Home Brewing Guide > Serving",
    ]
    (warning,) = [n for n in added.notices if n.startswith("descriptions of chunks")]
    assert warning.startswith("descriptions of chunks 9-11: the reply is not JSON")


def test_the_keyword_route_finds_a_chunk_by_its_description(added: Added) -> None:
    hits = added.library.indexes.keyword.search(ONLY_DESCRIBED, Access.local())
    assert [h.chunk_id for h in hits] == [added.chunks[FERMENT].id]


def test_the_vector_route_embeds_description_and_text(added: Added) -> None:
    inputs = [
        text
        for r in added.server.requests
        if r.path.endswith("/embeddings")
        for text in _inputs(r.body)
    ]
    described = added.chunks[FERMENT]
    assert f"{described.description}\n{described.text}" in inputs
    assert added.chunks[0].text not in inputs  # described chunks are never embedded bare


def test_no_description_word_is_quoted(added: Added) -> None:
    question = "What brewing temperature, and for how long?"
    answer = make_chat_agent(added.library).ask(ChatRequest(question, Access.local()))
    shown = chat_json(answer)
    assert shown["parts"] and any(p["status"] == "answered" for p in shown["parts"])
    quoted = " ".join(_strings(shown, skip={"question", "query", "arguments"}))
    assert "18 degrees" in quoted  # the chunk the description found is the one quoted
    assert ONLY_DESCRIBED not in quoted.lower()
    assert "Home Brewing Guide:" not in quoted


def test_a_derived_description_per_chunk_from_the_request(tmp_path: Path) -> None:
    """The stand-in describer the benchmark uses: one description per passage, made of the
    request's title and the passage's first words."""
    with ScriptedChatServer() as server:
        server.responder = describe_request
        guide = tmp_path / "guide.md"
        guide.write_text(GUIDE, encoding="utf-8")
        with Library(described_settings(tmp_path / "home", server, embedder="none")) as library:
            outcome = library.ingestor.add(str(guide), Access.local())
            assert outcome.document is not None
            chunks = library.store.chunks(outcome.document.id)
    assert len(server.chat_requests) == 2
    assert chunks[2].description == (
        "Home Brewing Guide: Home Brewing Guide > Malt Malt Crush the malt coarsely so that the"
        " husks stay"
    )


def _inputs(body: Any) -> list[str]:
    given = body.get("input", [])
    return [given] if isinstance(given, str) else list(given)


def _strings(value: Any, skip: set[str]) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _strings(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, skip)


def test_the_add_option_describes_offline_and_a_re_add_keeps_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``add --context-descriptions`` with no model: the title and section path; the same
    bytes added again (without the option) are the stored document, descriptions kept."""
    guide = tmp_path / "guide.md"
    guide.write_text(GUIDE, encoding="utf-8")
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "none")
    first = CliRunner().invoke(main, ["add", "--context-descriptions", "--json", str(guide)])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, ["add", "--json", str(guide)])
    assert json.loads(again.output)["results"][0]["status"] == "exists"
    with Library(load_settings()) as library:
        (document,) = library.store.list_documents(Access.local())
        chunks = library.store.chunks(document.id)
        hits = library.indexes.keyword.search("storage", Access.local())
    assert [c.description for c in chunks[8:]] == [
        "Home Brewing Guide > Cleaning",
        "Home Brewing Guide > Storage",
        "Home Brewing Guide > Serving",
    ]
    assert hits and hits[0].chunk_id == chunks[9].id
