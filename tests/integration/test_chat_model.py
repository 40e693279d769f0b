"""The chat agent with a model (issue 15): the ReAct loop against the scripted
chat-completions server speaking the real wire format (streamed replies, tool calls in
pieces, ``tool_call_id`` answers the server checks), over a real library of three small
documents. Each test scripts the model's replies and reads back what the agent sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from api_client import api_client
from chat_server import Received, Reply, ScriptedChatServer

from askalong.agent.agent_limits import AgentLimits
from askalong.agent.agent_prompts import SYSTEM
from askalong.agent.chat_agent import ChatAgent, ChatRequest
from askalong.agent.invented_citations import INVENTED_MARK
from askalong.agent.model_answer import JUDGE_SILENT
from askalong.agent.react import FORCED_CALL_ID
from askalong.agent.reply_checks import JUDGE_REASON
from askalong.agent.stream_events import ToolCalled, ToolDone
from askalong.asking.choose import make_asker
from askalong.config import load_settings
from askalong.feedback.give import give_feedback
from askalong.library import Library
from askalong.types import Access
from askalong.wire import chat_json

DOCS = {
    "vacuum.md": "# VACUUM\n\nVACUUM reclaims storage occupied by dead tuples.\n",
    "tablespace.md": "# Tablespaces\n\nA tablespace is a directory where PostgreSQL keeps "
    "the data files of its tables.\n",
    "checkpoint.md": "# Checkpoints\n\nA checkpoint flushes every dirty page to disk.\n",
}
VACUUM = ("search_knowledge", {"query": "VACUUM dead tuples", "top_k": 1})
TABLESPACE = ("search_knowledge", {"query": "tablespace directory", "top_k": 1})
CHECKPOINT = ("search_knowledge", {"query": "checkpoint dirty page", "top_k": 1})
THREE = (VACUUM, TABLESPACE, CHECKPOINT)
VACUUM_CALL = ("search_knowledge", json.dumps(VACUUM[1]))  # a reply built by hand (a delay)
TABLESPACE_CALL = ("search_knowledge", json.dumps(TABLESPACE[1]))
VACUUM_SAYS = "VACUUM reclaims storage occupied by dead tuples"
QUESTION = "What does VACUUM reclaim, and what is a tablespace?"


@dataclass(frozen=True)
class World:
    """The module's scripted server and library, and what a test sees of the server:
    the requests since the test began."""

    server: ScriptedChatServer
    library: Library
    since: int = 0

    def script(self, *replies: Reply) -> None:
        self.server.script(*replies)

    @property
    def requests(self) -> list[Received]:
        return self.server.requests[self.since :]

    @property
    def chat_bodies(self) -> list[Any]:
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One library for the module (ingesting is the slow part): the three documents,
    embedded by the scripted server, so that every search embeds its query there."""
    with ScriptedChatServer(embedding_dimension=256, word_vectors=True) as server:
        folder = tmp_path_factory.mktemp("chat-model")
        settings = load_settings(
            home=folder / "home",
            embedder="openai",
            embed_base_url=server.url,
            embed_model="scripted-embedder",
            answerer="openai",
            llm_base_url=server.url,
            llm_model="scripted-model",
        )
        with Library(settings) as library:
            for name, text in DOCS.items():
                (folder / name).write_text(text, encoding="utf-8")
                outcome = library.ingestor.add(str(folder / name), Access.local())
                assert outcome.document is not None, outcome.error
            library.indexes.embed_pending()
            yield World(server, library)


@pytest.fixture
def world(shared: World) -> Iterator[World]:
    shared.server.embedding_delay = 0.0
    yield replace(shared, since=len(shared.server.requests))
    assert shared.server.pending == 0, "a scripted reply was left unused"
    shared.server.embedding_delay = 0.0


def ask(world: World, question: str = QUESTION, *, judge: bool = False, **limits: Any) -> Any:
    """``question`` asked of the agent the settings build (the model's, since the answerer
    is ``openai``), with ``limits`` changed and the judge only when asked for."""
    return agent(world, judge=judge, **limits).ask(ChatRequest(question, Access.local()))


def agent(world: World, *, judge: bool = False, **limits: Any) -> ChatAgent:
    asker = make_asker(world.library)
    asker.judge = asker.judge if judge else None
    settings = world.library.settings
    limits_changed = replace(AgentLimits.of(settings), **limits)
    return ChatAgent(asker, world.library.store, settings, limits=limits_changed)


def tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "tool"]


def test_several_calls_in_one_reply_and_numbers_continuing_across_rounds(world: World) -> None:
    world.script(
        Reply.tool_calls(VACUUM, TABLESPACE),
        Reply.tool_calls(CHECKPOINT),
        Reply.text(
            f"{VACUUM_SAYS} [1]. A tablespace is a directory where PostgreSQL keeps the data "
            "files of its tables (source#2: Tablespaces). A checkpoint flushes every dirty "
            "page to disk [3]."
        ),
    )
    answer = ask(world)
    assert (answer.mode, answer.status, answer.rounds, answer.limits_hit) == (
        "model",
        "answered",
        3,
        (),
    )
    assert [s.sources for s in answer.steps] == [(1,), (2,), (3,)]
    assert [(s.number, s.title) for s in answer.sources] == [
        (1, "VACUUM"),
        (2, "Tablespaces"),
        (3, "Checkpoints"),
    ]
    assert answer.answer.endswith("[3].") and "(source#2" not in answer.answer
    assert {s.verdict for s in answer.sources} <= {"supported", "weak"}  # all backed
    assert (answer.scores.precision, answer.scores.recall) == (1.0, 1.0)
    first, second, third = world.chat_bodies
    assert first["stream"] and first["tool_choice"] == {
        "type": "function",
        "function": {"name": "search_knowledge"},
    }
    assert second["tool_choice"] == third["tool_choice"] == "auto"
    answers = tool_messages(second)
    assert [m["tool_call_id"] for m in answers] == ["call_1", "call_2"]
    assert "(source#1: VACUUM)" in answers[0]["content"]
    assert "(source#2: Tablespaces)" in answers[1]["content"]
    assert "(source#3: Checkpoints)" in tool_messages(third)[2]["content"]
    assert "Untrusted document text" in answers[0]["content"]
    assert chat_json(answer)["rounds"] == 3


def test_tool_calls_split_across_stream_chunks_are_joined_by_index(world: World) -> None:
    long_query = "which maintenance command reclaims the storage that dead tuples occupy"
    world.script(
        Reply.tool_calls(
            ("search_knowledge", {"query": long_query, "top_k": 2}), ("knowledge_stats", {})
        ),
        Reply.text(f"{VACUUM_SAYS} [1]."),
    )
    events = list(agent(world).stream(ChatRequest(QUESTION, Access.local())))
    called = [e for e in events if isinstance(e, ToolCalled)]
    assert [(e.name, dict(e.arguments)) for e in called] == [
        ("search_knowledge", {"query": long_query, "top_k": 2}),
        ("knowledge_stats", {}),
    ]
    done = [e.step for e in events if isinstance(e, ToolDone)]
    assert done[1].summary == "3 documents, 3 chunks"
    assert all(body["stream"] for body in world.chat_bodies)


def test_read_only_calls_run_in_parallel(world: World) -> None:
    """Each search embeds its query at the server, which takes ``delay``: three searches
    run one after another would arrive ``delay`` apart; in parallel they overlap."""
    delay = 0.8
    world.server.embedding_delay = delay
    calls = [(name, {**args, "query": f"{args['query']} (parallel)"}) for name, args in THREE]
    world.script(Reply.tool_calls(*calls), Reply.text("Done [1]."))
    answer = ask(world)
    world.server.embedding_delay = 0.0
    asked = {args["query"] for _, args in calls}  # new queries: none remembered
    embedded = [r for r in world.requests if r.path.endswith("/embeddings")]
    arrivals = sorted(r.at for r in embedded if r.body["input"][0] in asked)
    assert len(arrivals) == 3
    assert arrivals[-1] - arrivals[0] < delay / 2, arrivals  # all three were waiting at once
    assert max(s.ms for s in answer.steps) < 2000 * delay  # none waited (ms) for another
    assert [s.sources for s in answer.steps] == [(1,), (2,), (3,)]  # still in call order


def test_a_repeated_call_is_answered_from_the_first_and_the_third_ends_the_loop(
    world: World,
) -> None:
    world.script(
        Reply.tool_calls(VACUUM),
        Reply.tool_calls(VACUUM),
        Reply.tool_calls(VACUUM),
        Reply.text(f"{VACUUM_SAYS} [1]."),
    )
    answer = ask(world)
    assert answer.limits_hit == ("repeats",)
    bodies = world.chat_bodies
    assert len(bodies) == 4
    first, repeat, third = (tool_messages(bodies[i])[-1]["content"] for i in (1, 2, 3))
    assert repeat == first and "(source#1: VACUUM)" in first
    assert "three times" in third
    assert "tools" not in bodies[3]
    assert "three times" in bodies[3]["messages"][-1]["content"]
    assert answer.status == "answered"
    assert [s.summary for s in answer.steps] == ["1 passage", "repeated: first result", "repeated"]


def test_invented_citation_numbers_are_removed_and_marked(world: World) -> None:
    world.script(
        Reply.tool_calls(VACUUM),
        Reply.text(f"{VACUUM_SAYS} [1]. It was invented in 1986 [4]. 它很快 (来源#9: 手册)。"),
    )
    answer = ask(world)
    assert answer.answer == (
        f"{VACUUM_SAYS} [1]. It was invented in 1986{INVENTED_MARK}. 它很快{INVENTED_MARK}。"
    )
    assert [s.number for s in answer.sources] == [1]
    assert any("(4, 9)" in note for note in answer.notes)
    assert [c.verdict for c in answer.claims] == ["supported", "unverified", "unverified"]


def test_the_time_left_cannot_fit_another_round(world: World) -> None:
    world.script(
        Reply(content=None, calls=(VACUUM_CALL,), delay=1.2),
        Reply.text(f"{VACUUM_SAYS} [1]."),
    )
    answer = ask(world, seconds=2.0)
    assert answer.limits_hit == ("time",)
    final = world.chat_bodies[-1]
    assert len(world.chat_bodies) == 2 and "tools" not in final
    assert "time limit" in final["messages"][-1]["content"]
    assert answer.status == "answered" and answer.rounds == 2


def test_the_deadline_passing_mid_round_cancels_its_calls_each_answered(world: World) -> None:
    world.script(
        Reply(content=None, calls=(VACUUM_CALL, TABLESPACE_CALL), delay=1.3),
        Reply.text("Nothing was searched in time."),
    )
    answer = ask(world, seconds=1.0)
    final = world.chat_bodies[-1]  # the server refuses a call left unanswered
    cancelled = tool_messages(final)
    assert [m["tool_call_id"] for m in cancelled] == ["call_1", "call_2"]
    assert all(m["content"].startswith("cancelled: the time limit") for m in cancelled)
    assert answer.limits_hit == ("time",) and answer.status == "not_covered"
    assert [s.summary for s in answer.steps] == ["cancelled", "cancelled"]


def test_the_tool_call_limit_cancels_the_calls_beyond_it(world: World) -> None:
    queries = [("search_knowledge", {"query": f"VACUUM {n}", "top_k": 1}) for n in range(5)]
    world.script(Reply.tool_calls(*queries), Reply.text(f"{VACUUM_SAYS} [1]."))
    answer = ask(world, tool_calls=3)
    contents = [m["content"] for m in tool_messages(world.chat_bodies[-1])]
    assert len(contents) == 5
    assert [c.startswith("cancelled: the limit of 3 tool calls") for c in contents] == [
        False,
        False,
        False,
        True,
        True,
    ]
    assert answer.limits_hit == ("tool_calls",)


def test_a_tool_that_raises_is_reported_to_the_model_and_the_loop_goes_on(world: World) -> None:
    # submit_feedback rates the conversation's last stored answer: one comes first
    world.script(Reply.tool_calls(VACUUM), Reply.text(f"{VACUUM_SAYS} [1]."))
    earlier = ask(world, "What does VACUUM reclaim?")
    world.script(
        Reply.tool_calls(
            ("search_knowledge", {"query": "VACUUM", "top_k": 99}),
            ("search_knowledge", {"query": "   "}),
            ("drop_everything", {}),
            ("search_knowledge", "{not json"),
            ("submit_feedback", {"rating": "down", "reason": "too short"}),
            ("submit_feedback", {"rating": "down", "reason": "again"}),
        ),
        Reply.tool_calls(VACUUM),
        Reply.text(f"{VACUUM_SAYS} [1]."),
    )
    rated = f"Your answer was too short. {QUESTION}"  # the person asks to rate: it may write
    request = ChatRequest(rated, Access.local(), conversation_id=earlier.conversation_id)
    answer = agent(world).ask(request)
    errors = [m["content"] for m in tool_messages(world.chat_bodies[3])]
    assert len(errors) == 6
    assert "top_k 99" in errors[0] and "blank" in errors[1]
    assert "no tool 'drop_everything'" in errors[2] and "not a JSON object" in errors[3]
    assert errors[4] == "feedback stored" and "given this turn already" in errors[5]
    assert answer.status == "answered" and answer.sources[0].number == 1
    failed = [s for s in answer.steps if s.error]
    assert len(failed) == 4  # the unknown tool has no step of its own


def test_a_model_that_never_calls_a_tool_still_answers_from_a_search(world: World) -> None:
    world.script(Reply.text("VACUUM deletes tables."), Reply.text(f"{VACUUM_SAYS} [1]."))
    answer = ask(world, "What does VACUUM reclaim?")
    assert answer.steps[0].arguments == {"query": "What does VACUUM reclaim?", "top_k": 5}
    second = world.chat_bodies[1]
    assistant = next(m for m in second["messages"] if m.get("tool_calls"))
    assert assistant["tool_calls"][0]["id"] == FORCED_CALL_ID
    assert answer.status == "answered" and "deletes" not in answer.answer


def test_a_model_answering_with_no_citations_is_not_covered(world: World) -> None:
    world.script(Reply.tool_calls(VACUUM), Reply.text("VACUUM reclaims storage."))
    answer = ask(world)
    assert answer.status == "not_covered" and answer.sources == ()
    assert [c.verdict for c in answer.claims] == ["unverified"]
    assert (answer.scores.precision, answer.scores.recall) == (None, 0.0)


def test_the_judge_marks_a_source_suspicious_with_its_reason(world: World) -> None:
    world.script(
        Reply.tool_calls(VACUUM, TABLESPACE),
        Reply.text(
            f"{VACUUM_SAYS} [1]. A tablespace is a directory where PostgreSQL keeps the "
            "data files of its tables [2]."
        ),
        Reply.json(
            {"results": [{"claim": 0, "supported": True}, {"claim": 1, "supported": False}]}
        ),
    )
    answer = ask(world, judge=True)
    judge = world.chat_bodies[-1]
    assert "unstated or contradicts is not supported" in judge["messages"][0]["content"]
    assert [s.verdict for s in answer.sources] == ["supported", "suspicious"]
    assert answer.sources[1].reasons == (JUDGE_REASON.format(sentence=answer.claims[1].text),)
    assert answer.scores.precision == 0.5


def test_a_judge_that_times_out_leaves_the_offline_verdicts(world: World) -> None:
    world.script(
        Reply.tool_calls(VACUUM),
        Reply.text(f"{VACUUM_SAYS} [1]."),
        Reply(content='{"results": [{"claim": 0, "supported": false}]}', delay=3.0),
    )
    answer = ask(world, judge=True, judge_seconds=0.5)  # the judge answers after 3 s
    assert [s.verdict for s in answer.sources] == ["supported"]
    assert JUDGE_SILENT in answer.notes


def test_http_chat_streams_the_model_path_as_the_offline_one(world: World) -> None:
    """``POST /api/chat`` with a model configured: the same events, in the same shapes."""
    world.script(Reply.tool_calls(VACUUM, TABLESPACE), Reply.text(f"{VACUUM_SAYS} [1]."))
    with api_client(world.library.settings) as client:
        response = client.post("/api/chat", json={"question": QUESTION})
    assert response.status_code == 200, response.text
    events = [
        (block.split("\n")[0].removeprefix("event: "), json.loads(block.split("data: ", 1)[1]))
        for block in response.text.strip().split("\n\n")
    ]
    assert [name for name, _ in events] == [
        "conversation", "tool_call", "tool_call", "tool_result", "tool_result", "done",
    ]  # fmt: skip
    assert events[0][1]["mode"] == "model"
    assert events[3][1]["summary"] == "1 passage" and events[4][1]["sources"] == [2]
    done = events[-1][1]["answer"]
    assert (done["mode"], done["rounds"], done["status"]) == ("model", 2, "answered")
    assert [s["number"] for s in done["sources"]] == [1]


def test_the_askers_feedback_reaches_the_agents_system_prompt_below_its_rules(
    world: World,
) -> None:
    answered = (Reply.tool_calls(VACUUM), Reply.text(f"{VACUUM_SAYS} [1]."))
    world.script(*answered)
    first = ask(world, "What does VACUUM reclaim?")
    assert first.conversation_id is not None and first.turn_id is not None
    reason = "Shorter answers please, one sentence"
    store = world.library.store
    give_feedback(store, Access.local(), first.conversation_id, first.turn_id, "down", reason)
    world.script(*answered)
    ask(world, "What does VACUUM reclaim?")
    system = world.chat_bodies[-2]["messages"][0]
    assert system["role"] == "system"
    assert system["content"].index(SYSTEM) < system["content"].index(reason)
    assert "<<<PREFERENCE 1 " in system["content"]
