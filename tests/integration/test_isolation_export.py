"""Isolation of ``askalong feedback export``: the install's owner exports everyone's ratings
as evaluation items; the text quoted from another user's private document stays out of the
file (its chunk ids, the gold the evaluation needs, stay) unless ``--include-private``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.cli import main
from askalong.config import Settings
from askalong.feedback.give import give_feedback
from askalong.library import Library

SECRET = "The quillwort valve opens at forty kilopascals."


def export(*more: str) -> list[dict]:
    result = CliRunner().invoke(main, ["feedback", "export", *more], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_export_leaves_out_another_users_private_text(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "valve.md"
    path.write_text(f"# Quillwort valve\n\n{SECRET} It closes below ten.\n", encoding="utf-8")
    with Library(settings) as library:
        library.store.add_user("alice", "isolation password 1")
        alice = library.store.access_of("alice")
        added = library.ingestor.add(str(path), alice, visibility="private")
        assert added.document is not None
        answer = make_chat_agent(library).ask(
            ChatRequest("When does the quillwort valve open?", alice)
        )
        assert answer.sources and answer.conversation_id and answer.turn_id
        give_feedback(library.store, alice, answer.conversation_id, answer.turn_id, "up")
    (item,) = export()
    assert item["gold_chunk_ids"], item  # the gold stays, as chunk ids
    assert SECRET not in json.dumps(item) and item["gold_evidence"] == []
    (chosen,) = export("--include-private")
    assert SECRET in json.dumps(chosen)  # the probe can fail: the text is there to leave out
