"""The chat agent offline (issue 15) on real documents: pages of the PostgreSQL manual and
a paper from the evaluation data, keyword search only. Each part of a two-part question is
searched on its own and answered with its own citations, under one numbering that
continues across the searches; every source's text is exactly its block's text at its
span; the stats question is answered from ``knowledge_stats``; the turn is stored in its
conversation; the CLI (``chat --json``) and the HTTP route (``/api/chat``, streamed) give
the same answer form."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from api_client import api_client
from click.testing import CliRunner
from offline_home import filled, opened

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.source_registry import SourceRegistry
from askalong.agent.tools import (
    KnowledgeTools,
    Scope,
    ToolArgumentError,
)
from askalong.agent.wiring import make_chat_agent
from askalong.asking.choose import make_asker
from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.errors import InputError
from askalong.feedback.give import give_feedback
from askalong.library import Library
from askalong.types import Access

PAGES = (
    "sql-vacuum.html", "wal-intro.html", "manage-ag-tablespaces.html",
    "sql-createindex.html", "mvcc-intro.html", "sql-truncate.html",
    "runtime-config-resource.html", "sql-merge.html", "sql-insert.html",
)  # fmt: skip
PAPER = "pdf/en_2col/tracemonkey-pldi-09.pdf"
TWO_PARTS = "How does TRUNCATE empty a table? And also what is a tablespace?"


@pytest.fixture(scope="module")
def home(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("chat") / "home"
    folder = home.parent / "pages"
    folder.mkdir()
    for page in PAGES:
        shutil.copyfile(evaldata / "manuals" / "postgresql-15-html" / page, folder / page)
    return filled(home, [*sorted(folder.iterdir()), evaldata / PAPER])


@pytest.fixture
def library(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Library]:
    yield from opened(home, monkeypatch)


def test_each_part_is_answered_with_its_own_citations_under_one_numbering(
    library: Library,
) -> None:
    answer = make_chat_agent(library).ask(ChatRequest(TWO_PARTS, Access.local()))
    assert [p.question for p in answer.parts] == [
        "How does TRUNCATE empty a table?",
        "what is a tablespace?",
    ]
    searches = [s for s in answer.steps if s.name == "search_knowledge"]
    assert [s.arguments["query"] for s in searches] == [p.question for p in answer.parts]
    first, second = searches
    assert set(second.sources) - set(first.sources)  # the second search found more
    shown = [s.number for s in answer.sources]  # 1..N in the order the answer cites them
    assert shown == list(range(1, len(shown) + 1))
    cited = [int(n) for n in re.findall(r"\[(\d+)", answer.answer)]
    assert list(dict.fromkeys(cited)) == shown
    truncate, tablespace = answer.parts
    assert truncate.status == tablespace.status == "answered"
    assert set(truncate.sources) <= set(first.sources) and truncate.sources
    assert set(tablespace.sources) <= set(second.sources) and tablespace.sources
    assert "truncat" in truncate.answer.lower()
    assert "tablespace" in tablespace.answer.lower()
    for number in (*truncate.sources, *tablespace.sources):
        assert f"[{number}]" in answer.answer
    titles = {s.number: s.title for s in answer.sources}
    assert "TRUNCATE" in titles[truncate.sources[0]]
    for source in answer.sources:  # every source is its block's exact text
        block = library.store.block(source.document_id, source.block_id)
        assert block.text[source.start : source.end] == source.text
    assert answer.scores.recall is not None and answer.scores.recall > 0
    assert "without a language model" in answer.notes[0]


def test_a_part_without_its_own_subject_is_searched_and_answered_with_the_one_before(
    library: Library,
) -> None:
    # "it" alone finds MERGE's and INSERT's DEFAULT clauses; with work_mem put in, the
    # parameter's own entry, which states its default
    question = "What does work_mem set? And also what does it default to?"
    answer = make_chat_agent(library).ask(ChatRequest(question, Access.local()))
    searches = [s.arguments["query"] for s in answer.steps if s.name == "search_knowledge"]
    assert searches == ["What does work_mem set?", "what does work_mem default to?"]
    assert [p.question for p in answer.parts] == [
        "What does work_mem set?",
        "what does it default to?",
    ]
    default = answer.parts[1]
    assert default.status == "answered" and default.sources
    titles = {s.number: s.title for s in answer.sources}
    assert titles[default.sources[0]] == "20.4. Resource Consumption", default.answer


def test_a_stats_part_is_answered_from_knowledge_stats(library: Library) -> None:
    question = "Who built TraceMonkey? How many documents are there?"
    answer = make_chat_agent(library).ask(ChatRequest(question, Access.local()))
    assert [s.name for s in answer.steps] == ["search_knowledge", "knowledge_stats"]
    assert f"{len(PAGES) + 1} documents" in answer.parts[1].answer
    assert answer.parts[0].sources


def test_the_turn_is_stored_in_its_conversation(library: Library) -> None:
    agent = make_chat_agent(library)
    first = agent.ask(ChatRequest("What is a tablespace?", Access.local()))
    assert first.conversation_id is not None
    follow = ChatRequest("How do I create one?", Access.local(), (), first.conversation_id)
    second = agent.ask(follow)
    assert second.conversation_id == first.conversation_id
    turns = library.store.turns(first.conversation_id)
    assert [t.question for t in turns] == ["What is a tablespace?", "How do I create one?"]
    assert turns[1].answer.quotes and turns[1].answer.answerer == "agent-offline"
    assert "tablespace" in second.answer.lower()  # the follow-up searched beside its turn


def test_feedback_on_a_chat_answer_freezes_its_hits_with_route_scores_and_ranks(
    home: Path, tmp_path: Path
) -> None:
    """Issue 16's frozen copy for a chat turn as for an ``ask`` one: the ranked hits of
    every passage the agent read, with the keyword route's scores and ranks (in a copy of
    the library, so the other tests' feedback stays their own)."""
    shutil.copytree(home, tmp_path / "home")
    with Library(load_settings(home=tmp_path / "home", embedder="none")) as library:
        _freezes_hits(library)


def _freezes_hits(library: Library) -> None:
    answer = make_chat_agent(library).ask(ChatRequest(TWO_PARTS, Access.local()))
    assert answer.conversation_id is not None and answer.turn_id is not None
    stored = library.store.turns(answer.conversation_id)[-1].answer
    assert stored.hits and stored.hits == answer.hits
    record = give_feedback(
        library.store, Access.local(), answer.conversation_id, answer.turn_id, "down", "vague"
    )
    retrieved = record.judged.retrieved
    assert [r.rank for r in retrieved] == list(range(1, len(retrieved) + 1))
    assert record.judged.retrieval_mode == "keyword"  # this library has no embedder
    for ranked in retrieved:
        assert ranked.hit.keyword_score is not None and ranked.hit.keyword_score > 0
        assert ranked.hit.keyword_rank is not None and ranked.hit.keyword_rank >= 1
        assert ranked.title and len(ranked.text_sha256) == 64
    cited = {cid for c in record.judged.citations for cid in c.chunk_ids}
    assert cited and cited <= {r.hit.chunk_id for r in retrieved}  # what it cited, it found


def test_tool_arguments_are_checked_and_feedback_is_stored_once(library: Library) -> None:
    tools = KnowledgeTools(
        make_asker(library), library.store, Scope(Access.local()), SourceRegistry()
    )
    for query, top_k in (("", 5), ("   ", 5), ("x" * 4001, 5), (7, 5), ("ok", 0), ("ok", 11)):
        with pytest.raises(ToolArgumentError):
            tools.search_knowledge(query, top_k)
    with pytest.raises(ToolArgumentError, match="no tool"):
        tools.call("drop_everything", {})
    with pytest.raises(ToolArgumentError, match="unknown argument 'user'"):
        tools.call("search_knowledge", {"query": "vacuum", "user": "someone"})
    found = tools.call("search_knowledge", {"query": "vacuum", "top_k": 2})
    assert len(found.sources) <= 2 and "<<<(source#1: " in found.content
    with pytest.raises(ToolArgumentError, match="own message asks"):
        tools.submit_feedback("down", "the person did not ask")
    writing = KnowledgeTools(
        tools.asker, library.store, Scope(Access.local(), may_write=True), SourceRegistry()
    )
    with pytest.raises(InputError, match="no answer in this conversation"):
        writing.submit_feedback("down", "no conversation yet")
    first = make_chat_agent(library).ask(ChatRequest("What does VACUUM FULL do?", Access.local()))
    talk = Scope(
        Access.local(), conversation_id=first.conversation_id, turn_id="next", may_write=True
    )
    tools = KnowledgeTools(tools.asker, library.store, talk, SourceRegistry())
    tools.submit_feedback("down", "the answer missed the FULL option")
    with pytest.raises(ToolArgumentError, match="already"):
        tools.submit_feedback("up", "second")
    with pytest.raises(ToolArgumentError, match="rating"):
        KnowledgeTools(tools.asker, library.store, tools.scope, SourceRegistry()).submit_feedback(
            "5", ""
        )
    stored = library.store.list_feedback(Access.local())
    assert [(f.rating, f.reason, f.turn_id, f.source) for f in stored] == [
        ("down", "the answer missed the FULL option", first.turn_id, "agent")
    ]
    assert stored[0].judged.question == "What does VACUUM FULL do?"
    assert stored[0].triage is not None
    summary = tools.generate_summary("tablespaces")
    assert summary.summary is not None and "[" in summary.content


def test_cli_chat_json(library: Library) -> None:
    result = CliRunner().invoke(main, ["chat", TWO_PARTS, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["status"] == "answered" and body["mode"] == "offline"
    assert len(body["parts"]) == 2 and body["steps"][0]["name"] == "search_knowledge"
    source = body["sources"][0]
    assert set(source) >= {"number", "document_id", "page", "span", "verdict", "text"}
    assert set(body) >= {"limits_hit", "timings", "citation_precision", "citation_recall"}
    follow = CliRunner().invoke(
        main, ["chat", "What about VACUUM?", "--conversation", body["conversation_id"], "--json"]
    )
    assert json.loads(follow.output)["conversation_id"] == body["conversation_id"]


def test_http_chat_streams_tool_steps_then_the_answer(library: Library, home: Path) -> None:
    settings: Settings = load_settings(home=home)
    library.close()  # the server opens its own
    with api_client(settings) as client:
        response = client.post("/api/chat", json={"question": TWO_PARTS})
        assert response.status_code == 200
        events = [
            (block.split("\n")[0].removeprefix("event: "), json.loads(block.split("data: ", 1)[1]))
            for block in response.text.strip().split("\n\n")
        ]
        names = [name for name, _ in events]
        assert names == [
            "conversation", "tool_call", "tool_result", "part",
            "tool_call", "tool_result", "part", "done",
        ]  # fmt: skip
        assert events[2][1]["summary"].endswith("passages")
        done = events[-1][1]["answer"]
        assert len(done["parts"]) == 2 and done["sources"]
        plain = client.post("/api/chat", json={"question": TWO_PARTS, "stream": False}).json()
        assert plain["answer"] == done["answer"]
        assert client.post("/api/chat", json={"question": " "}).status_code == 400
