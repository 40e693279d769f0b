"""Per question the work is done once: the anchor resolved once, the question's language
detected once, the question tokenised at most twice, its document permission-checked once
per edge, and a knowledge-base question reads no document's blocks whole.

Real questions on a real paper through the real edges (the HTTP route in-process, the
CLI), the offline extractive answerer and keyword search only (the ``settings`` fixture
sets ``ASKALONG_EMBEDDER=none``). The real functions are wrapped by counting wrappers,
installed with ``monkeypatch.setattr`` on every module that holds their name (and on the
store class), and removed when each test ends: here the count is the subject.
"""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from click.testing import CliRunner
from fastapi.testclient import TestClient

import askalong.server.routes.ask  # noqa: F401  (the modules whose names are wrapped)
from askalong.cli import main
from askalong.config import Settings
from askalong.context.anchor import anchor_index, resolve_anchor
from askalong.context.outline import section_root
from askalong.retrieve.search import Searcher
from askalong.store.sqlite.store import SQLiteStore
from askalong.text.scripts import detect_language
from askalong.text.tokens import tokenize

PAPER = "pdf/en_2col/N18-3011.pdf"
QUESTION = "How is the literature graph built?"
FOLLOW_UP = "Which entities does it link?"
KB_QUESTION = "What does the literature graph contain?"


class Calls:
    """Calls of the wrapped functions: all of them, and those on one question's text,
    split by whether the searcher made them (it reads its own query)."""

    def __init__(self) -> None:
        self.all: Counter[str] = Counter()
        self.on_question: Counter[str] = Counter()
        self.by_searcher: Counter[str] = Counter()
        self.question = ""
        self.searching = False
        self.searches = 0  # searcher calls on the question

    def ask(self, question: str) -> None:
        self.all.clear()
        self.on_question.clear()
        self.by_searcher.clear()
        self.question = question
        self.searches = 0

    def note(self, name: str, args: tuple[Any, ...]) -> None:
        self.all[name] += 1
        if any(arg == self.question for arg in args if isinstance(arg, str)):
            self.on_question[name] += 1
            if self.searching:
                self.by_searcher[name] += 1


def _counted(calls: Calls, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.note(name, args)
        return function(*args, **kwargs)

    return counting


def _searching(calls: Calls, search: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(search)
    def marked(*args: Any, **kwargs: Any) -> Any:
        calls.searching = True
        calls.searches += any(arg == calls.question for arg in args if isinstance(arg, str))
        try:
            return search(*args, **kwargs)
        finally:
            calls.searching = False

    return marked


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Counting wrappers on every askalong module holding one of the functions by name."""
    calls = Calls()
    for function in (resolve_anchor, anchor_index, section_root, detect_language, tokenize):
        wrapper = _counted(calls, function.__name__, function)
        for module in list(sys.modules.values()):
            holds = getattr(module, function.__name__, None) is function
            if holds and getattr(module, "__name__", "").startswith("askalong"):
                monkeypatch.setattr(module, function.__name__, wrapper)
    for method in ("get_document", "blocks", "document_titles"):
        real = getattr(SQLiteStore, method)
        monkeypatch.setattr(SQLiteStore, method, _counted(calls, f"store.{method}", real))
    for method in ("search", "ranking"):  # the ranking tops a few hits up (evidence_search)
        monkeypatch.setattr(Searcher, method, _searching(calls, getattr(Searcher, method)))
    return calls


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def _paper(client: TestClient, evaldata: Path) -> tuple[str, str]:
    path = evaldata / PAPER
    added = client.post("/api/documents", files={"file": (path.name, path.read_bytes())})
    assert added.status_code == 201, added.text
    doc_id: str = added.json()["document"]["id"]
    blocks = client.get(f"/api/documents/{doc_id}").json()["blocks"]
    body = next(b for b in blocks if b["kind"] == "paragraph" and len(b["text"]) > 300)
    selection: str = body["text"][:120]
    return doc_id, selection


def _asked_once(calls: Calls, readings: int = 1) -> None:
    """The anchor resolved and its document read once; the question's language detected
    once and its text tokenized at most once more than it is read (``readings``)."""
    assert calls.all["resolve_anchor"] == 1, calls.all
    assert calls.all["anchor_index"] == 1, calls.all
    assert calls.all["section_root"] == 1, calls.all
    assert calls.on_question["detect_language"] == 1, calls.on_question
    assert calls.on_question["tokenize"] <= 1 + readings, calls.on_question
    assert calls.all["store.blocks"] == 1, calls.all  # the anchor's document, read once


def test_a_read_along_question_and_its_follow_up_over_http(
    client: TestClient, evaldata: Path, calls: Calls
) -> None:
    doc_id, selection = _paper(client, evaldata)
    calls.ask(QUESTION)
    body = {"document_id": doc_id, "question": QUESTION, "stream": False}
    first = client.post("/api/ask", json={**body, "anchor": {"selected_text": selection}})
    assert first.status_code == 200, first.text
    assert first.json()["status"] == "answered"
    _asked_once(calls)
    assert calls.all["store.get_document"] == 1, calls.all  # the route's, none in the core

    calls.ask(FOLLOW_UP)
    thread = first.json()["thread_id"]
    follow = client.post(
        "/api/ask", json={**body, "question": FOLLOW_UP, "thread_id": thread, "stream": False}
    )
    assert follow.status_code == 200, follow.text
    assert follow.json()["anchor"] == first.json()["anchor"]
    _asked_once(calls)
    assert calls.all["store.get_document"] == 1, calls.all


def _ask_cli(*args: str) -> Any:
    result = CliRunner().invoke(main, ["ask", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def cli_paper(settings: Settings, evaldata: Path) -> str:
    result = CliRunner().invoke(main, ["add", str(evaldata / PAPER), "--json"])
    assert result.exit_code == 0, result.output
    doc_id: str = json.loads(result.stdout)["results"][0]["document"]["id"]
    return doc_id


def test_a_knowledge_base_question_in_the_cli(cli_paper: str, calls: Calls) -> None:
    shown = CliRunner().invoke(main, ["show", cli_paper, "--blocks", "--json"])
    blocks = {b["id"]: b for b in json.loads(shown.stdout)["blocks"]}
    for documents in (["--doc", cli_paper[:8]], []):
        calls.ask(KB_QUESTION)
        answer = _ask_cli(KB_QUESTION, *documents)
        assert answer["status"] == "answered" and answer["quotes"]
        for quote in answer["quotes"]:  # each with its own block's page and section
            block = blocks[quote["block_id"]]
            assert (quote["page"], quote["section_path"]) == (block["page"], block["section_path"])
        assert calls.all["resolve_anchor"] == calls.all["section_root"] == 0, calls.all
        # quotes carry their own page and section: no document is read whole
        assert calls.all["store.blocks"] == 0, calls.all
        # the --doc prefix resolved by the CLI, or the one hit document's title
        assert calls.all["store.get_document"] == 1, calls.all
        # the searcher takes the analysed language; its keyword route tokenises the query,
        # once per search: a second, uncut ranking tops up a paper's few fused hits
        # (``asking/evidence_search.py``, the keyword tail), never more
        searcher = calls.by_searcher
        assert 1 <= calls.searches <= 2, calls.searches
        # the title-chunk check (``retrieve/titles``): one batched query a search at most
        assert calls.all["store.document_titles"] <= calls.searches, calls.all
        assert searcher["detect_language"] == 0, searcher
        assert searcher["tokenize"] == calls.searches, searcher
        core = calls.on_question - searcher
        assert core["detect_language"] == 1 and core["tokenize"] == 1, core
        assert calls.on_question["tokenize"] <= 1 + calls.searches, calls.on_question


def test_a_follow_up_in_the_cli_checks_its_thread_document_once(
    cli_paper: str, calls: Calls, evaldata: Path
) -> None:
    first = _ask_cli("--doc", cli_paper, "--select", "scalable system", "--intent", "explain")
    assert first["status"] == "answered"
    calls.ask(FOLLOW_UP)
    follow = _ask_cli(FOLLOW_UP, "--thread", first["thread_id"])
    assert follow["anchor"] == first["anchor"]
    # read as typed, then as searched: made self-contained from its thread (question/rewrite)
    _asked_once(calls, readings=2)
    assert calls.all["store.get_document"] == 1, calls.all  # no --doc: the core checks
