"""`askalong feedback` end to end on a real page of the PostgreSQL manual: rate answers
by turn id, list the ratings, export them as evaluation items in the fixed JSONL form
(no asker unless ``--include-users``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from askalong.cli import main
from askalong.config import Settings

PAGE = "manuals/postgresql-15-html/sql-truncate.html"
ITEM_KEYS = {
    "id", "question", "category", "expected", "gold_chunk_ids", "gold_evidence", "asker",
    "source", "note",
}  # fmt: skip


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def run_json(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def test_rate_list_and_export(settings: Settings, evaldata: Path, tmp_path: Path) -> None:
    doc = run_json("add", str(evaldata / PAGE))["results"][0]["document"]["id"]
    good = run_json("ask", "What does TRUNCATE do to a table?", "--doc", doc)
    refused = run_json("ask", "How do I bake sourdough bread?", "--doc", doc)
    assert good["status"] == "answered" and refused["status"] == "not_covered"
    down = run_json("feedback", "down", good["turn_id"][:8], "--reason", "Answer in one line")
    assert down["rating"] == "down" and down["source"] == "cli" and down["triage"]
    run_json("feedback", "up", refused["turn_id"])
    listed = run_json("feedback", "list")["feedback"]
    assert [f["turn_id"] for f in listed] == [refused["turn_id"], good["turn_id"]]
    out = tmp_path / "items.jsonl"
    run("feedback", "export", "--out", str(out))
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [set(i) for i in items] == [ITEM_KEYS, ITEM_KEYS]
    answered, refuse = items
    assert answered["question"] == "What does TRUNCATE do to a table?"
    assert answered["note"] == "Answer in one line" and answered["asker"] is None
    assert answered["category"] == "from_feedback" and answered["source"] == "feedback"
    assert answered["expected"] == "answer"
    if down["triage"]["label"] == "generation_fault":  # the cited parents hold the answer
        assert answered["gold_chunk_ids"] and answered["gold_evidence"][0]["document"]
    assert refuse["expected"] == "refuse" and refuse["gold_chunk_ids"] == []
    with_users = [json.loads(x) for x in run("feedback", "export", "--include-users").splitlines()]
    assert [i["asker"] for i in with_users] == ["local", "local"]


def test_an_unknown_turn_is_an_error(settings: Settings) -> None:
    result = CliRunner().invoke(main, ["feedback", "up", "deadbeef"])
    assert result.exit_code != 0 and "no such answer" in result.output
