"""A chat part written from code carries its answer's route (issue 32): offline, over the
standard library's ``asyncio/locks.py`` beside a PostgreSQL manual page, "What calls
_wake_up_first?" is answered from the call graph and its part says so (``code_graph``,
one of ``FROM_CODE_ROUTES``), the manual part of the same question carries none; ``chat
--json`` and the streamed ``part`` events have the field, and the turn a conversation
keeps holds the route of its one part, so a reopened code answer is shown as code."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from api_client import api_client
from click.testing import CliRunner
from offline_home import filled, opened

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.asking.code_routes import FROM_CODE_ROUTES
from askalong.cli import main
from askalong.config import load_settings
from askalong.library import Library
from askalong.types import Access

LOCKS = Path(asyncio.__file__).parent / "locks.py"
TRUNCATE = "manuals/postgresql-15-html/sql-truncate.html"
CALLERS = "What calls _wake_up_first?"
TWO_PARTS = f"{CALLERS} And also what does TRUNCATE do?"


@pytest.fixture(scope="module")
def home(evaldata: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return filled(tmp_path_factory.mktemp("chat-code") / "home", (LOCKS, evaldata / TRUNCATE))


@pytest.fixture
def library(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Library]:
    yield from opened(home, monkeypatch)


def test_a_code_part_carries_its_route_and_a_prose_part_none(library: Library) -> None:
    result = CliRunner().invoke(main, ["chat", TWO_PARTS, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    code, prose = json.loads(result.output)["parts"]
    assert code["status"] == "answered" and code["route"] in FROM_CODE_ROUTES, code
    assert "Lock.acquire" in code["answer"]  # the call graph's caller, cited
    assert prose["status"] == "answered" and prose["route"] is None, prose
    assert "TRUNCATE" in prose["answer"]


def test_the_stored_turn_keeps_the_route_of_its_one_part(library: Library) -> None:
    agent = make_chat_agent(library)
    one = agent.ask(ChatRequest(CALLERS, Access.local()))
    assert one.conversation_id is not None
    (part,) = one.parts
    assert part.route in FROM_CODE_ROUTES
    (turn,) = library.store.turns(one.conversation_id)
    assert turn.answer.route == part.route and turn.answer.answer == part.answer
    two = agent.ask(ChatRequest(TWO_PARTS, Access.local()))
    assert two.conversation_id is not None
    (joined,) = library.store.turns(two.conversation_id)
    assert joined.answer.route is None  # two parts' text joined: neither's route


def test_each_streamed_part_carries_its_route(library: Library, home: Path) -> None:
    library.close()  # the server opens its own
    with api_client(load_settings(home=home)) as client:
        response = client.post("/api/chat", json={"question": TWO_PARTS})
        assert response.status_code == 200
    blocks = response.text.strip().split("\n\n")
    parts = [json.loads(b.split("data: ", 1)[1]) for b in blocks if b.startswith("event: part")]
    assert [p["index"] for p in parts] == [0, 1]
    assert parts[0]["route"] in FROM_CODE_ROUTES and parts[1]["route"] is None
