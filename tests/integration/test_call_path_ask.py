"""Call-path questions asked at lines of real code (issue 17): the standard library's
``concurrent/futures`` added as a repository folder, ``ThreadPoolExecutor.submit`` asked
"which paths does this trigger?" through ``askalong ask`` and ``/api/ask``. Offline the
answer is the call tree, one line per node, each node a quote of its definition line;
with a model (a scripted OpenAI-compatible server) the model is given the tree's
functions and its explanation is checked against them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from chat_server import Reply, ScriptedChatServer
from click.testing import CliRunner
from code_samples import copy_stdlib
from fences import read_fences

from askalong.answer.llm.answerer import ModelAnswerer
from askalong.asking.asker import Asker, Question
from askalong.cli import main
from askalong.config import Settings
from askalong.context.line_anchor import line_anchor, line_ref
from askalong.library import Library
from askalong.providers.http import RetryPolicy
from askalong.providers.openai.chat import OpenAIChat
from askalong.types import Access

THREAD = "concurrent/futures/thread.py"
NODE = re.compile(r"^(?P<indent> *)(?P<name>\S+)  (?P<source>\S+):(?P<first>\d+)-(?P<last>\d+)")


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def repo(settings: Settings, tmp_path: Path) -> Path:
    folder = copy_stdlib(tmp_path / "repo", "concurrent/futures", "threading.py")
    run_json("add", "--no-embed", str(folder))
    return folder


def submit_line(folder: Path) -> int:
    """The line inside ``ThreadPoolExecutor.submit`` that calls ``_adjust_thread_count``."""
    lines = (folder / THREAD).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if "self._adjust_thread_count()" in line)


def nodes(answer: dict[str, Any]) -> list[re.Match[str]]:
    found = [NODE.match(line) for line in answer["answer"].split("\n")[1:]]
    assert all(found), answer["answer"]
    return [m for m in found if m is not None]


def test_offline_the_answer_is_the_call_tree_each_node_its_definition_line(repo: Path) -> None:
    line = submit_line(repo)
    answer = run_json("ask", "--at", f"{THREAD}:{line}", "Which paths does this trigger?")
    assert answer["status"] == "answered"
    found = nodes(answer)
    names = [m["name"] for m in found]
    assert names[0] == "ThreadPoolExecutor.submit"
    assert {"ThreadPoolExecutor._adjust_thread_count", "_worker"} <= set(names)
    assert len(answer["quotes"]) == len(found)
    for node, quote in zip(found, answer["quotes"], strict=True):
        # the answer names a file inside its repository, never by the path it was added from
        (shown,) = [p for p in repo.rglob("*.py") if p.as_posix().endswith("/" + node["source"])]
        source = shown.read_text(encoding="utf-8").splitlines()
        first, last = int(node["first"]), int(node["last"])
        rows = source[first - 1 : last]  # its comment and decorators, then the definition
        defined = [row for row in rows if not row.lstrip().startswith(("@", "#"))]
        assert quote["text"] == defined[0]  # exactly the definition's line
        assert re.match(r"\s*(async )?(def|class) ", quote["text"]), quote["text"]
        assert quote["verdict"] == "supported"
        assert quote["section_path"][-1] == node["name"].split(".")[-1]
    depth = {m["name"]: len(m["indent"]) // 2 for m in found}
    assert depth["ThreadPoolExecutor._adjust_thread_count"] == 1


def test_a_chinese_call_path_question_is_routed_too_and_a_plain_one_is_not(repo: Path) -> None:
    at = f"{THREAD}:{submit_line(repo)}"
    chinese = run_json("ask", "--at", at, "这段代码调用了哪些函数？")
    assert chinese["answer"].startswith("ThreadPoolExecutor.submit 的调用")
    assert "_worker" in chinese["answer"]
    plain = run_json("ask", "--at", at, "Why is a lock taken here?")
    assert not any("call tree" in s for s in plain["searched"])
    assert "ThreadPoolExecutor.submit  " not in plain["answer"]


def test_the_http_ask_routes_a_call_path_question_to_the_tree(
    settings: Settings, repo: Path
) -> None:
    with api_client(settings) as client:
        listed = client.get("/api/documents").json()["documents"]
        doc = next(d for d in listed if d["source"].endswith(THREAD))
        blocks = client.get(f"/api/documents/{doc['id']}").json()["blocks"]
        line = submit_line(repo)
        block = next(b for b in blocks if b["lines"][0] <= line <= b["lines"][1])
        body = {
            "document_id": doc["id"],
            "question": "What does this call?",
            "anchor": {"block_id": block["id"], "start": 0, "end": 10},
            "stream": False,
        }
        answer = client.post("/api/ask", json=body).json()
    assert answer["status"] == "answered", answer
    assert "_adjust_thread_count" in answer["answer"] and "_worker" in answer["answer"]
    assert answer["searched"][0].startswith("the call tree from ThreadPoolExecutor.submit")


def test_with_a_model_the_model_explains_the_tree_from_its_functions(
    settings: Settings, repo: Path
) -> None:
    line = submit_line(repo)
    with Library(settings) as library:
        local = Access.local()
        document = next(d for d in library.store.list_documents(local) if d.source.endswith(THREAD))
        ref = line_ref(f"{THREAD}:{line}")
        assert ref is not None
        anchor = line_anchor(document.id, library.store.blocks(document.id), ref)
        quote = "def _adjust_thread_count(self):"
        question = Question("Which paths does this trigger?", anchor=anchor)
        # first what the model is sent; then a reply citing the source that holds `quote`
        silent = {"status": "not_covered", "answer": "-", "quotes": []}
        with ScriptedChatServer(Reply.json(silent)) as server:
            chat = OpenAIChat(server.url, "m", "sk-test", 5.0, retry=RetryPolicy(attempts=1))
            Asker(library.store, library.searcher, ModelAnswerer(chat)).ask(question, local)
            messages = server.chat_bodies[0]["messages"]
        fences = read_fences(messages[0]["content"], messages[-1]["content"])
        for function in ("def submit(", quote, "def _worker("):
            assert fences.holding(function), (function, list(fences.bodies))
        (label,) = fences.holding(quote)
        reply = {
            "status": "answered",
            "answer": "submit queues the work item and starts a thread when needed [1].",
            "quotes": [{"n": 1, "source": int(label.split()[-1]), "text": quote}],
        }
        with ScriptedChatServer(Reply.json(reply)) as server:
            chat = OpenAIChat(server.url, "m", "sk-test", 5.0, retry=RetryPolicy(attempts=1))
            answer = Asker(library.store, library.searcher, ModelAnswerer(chat)).ask(
                question, local
            )
            assert len(server.chat_bodies) == 1  # the quote is where the model said
    assert answer.status == "answered" and answer.model == "m"
    assert answer.quotes and answer.quotes[0].text.strip() == quote
