"""``askalong ask`` asks the running ``askalong serve`` of its home (issues 27, 28): the real
server (a subprocess) says where it listens in ``ASKALONG_HOME/server.json``, the command
asks it and prints the same answer, JSON and text; with the server stopped, a stale file
or ``--in-process``, the command answers in its own process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from askalong.cli import main
from askalong.config import Settings
from askalong.server.presence import PRESENCE_FILE, running
from e2e.live import live_server

QUESTION = ("--collection", "repo", "who calls clamp?")


def repository(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "util.py").write_text("def clamp(x):\n    return max(0, x)\n")
    (folder / "app.py").write_text("from util import clamp\n\n\ndef run(v):\n    return clamp(v)\n")
    return folder


def asked(*args: str) -> str:
    result = CliRunner().invoke(main, ["ask", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def answer_of(output: str) -> dict[str, Any]:
    """The answer JSON without what differs between two asks (thread, turn, timings)."""
    found: dict[str, Any] = json.loads(output)
    return {k: v for k, v in found.items() if k not in ("thread_id", "turn_id", "timings")}


def test_ask_goes_to_the_running_server_and_prints_the_same_answer(
    settings: Settings, tmp_path: Path
) -> None:
    result = CliRunner().invoke(main, ["add", "--no-embed", str(repository(tmp_path))])
    assert result.exit_code == 0, result.output
    notes = tmp_path / "notes.md"
    notes.write_text("# Tides\n\nThe moon's pull raises two tides a day on most coasts.\n")
    assert CliRunner().invoke(main, ["add", "--no-embed", str(notes)]).exit_code == 0
    here = answer_of(asked("--json", *QUESTION))
    with live_server(settings.home) as server:
        presence = running(settings.home)
        assert presence is not None and presence.url == server.url
        assert (settings.home / PRESENCE_FILE).stat().st_mode & 0o077 == 0
        assert answer_of(asked("--json", *QUESTION)) == here
        text = asked(*QUESTION)
        assert f"via askalong serve, pid {presence.pid}" in text
        assert "clamp" in text
        assert "via askalong serve" not in asked("--in-process", *QUESTION)
        at_lines = ("--json", "--at", "app.py:5", "who calls this?")
        assert answer_of(asked(*at_lines)) == answer_of(asked("--in-process", *at_lines))
        assert f"pid {presence.pid}" in asked(*at_lines[1:])
        for question in ("who calls clamp?", "How many tides a day?"):
            alone = ("--json", question)  # no --doc: every document of the home
            assert answer_of(asked(*alone)) == answer_of(asked("--in-process", *alone))
        assert "tides" in answer_of(asked(*alone))["answer"]
        assert f"pid {presence.pid}" in asked(*alone[1:])
    assert not (settings.home / PRESENCE_FILE).exists()  # withdrawn as it stopped
    assert "via askalong serve" not in asked(*QUESTION)


def test_a_stale_presence_file_is_ignored(settings: Settings, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["add", "--no-embed", str(repository(tmp_path))])
    assert result.exit_code == 0, result.output
    command = [sys.executable, "-c", "import os; print(os.getpid())"]
    gone = subprocess.run(command, check=True, capture_output=True, text=True)
    record = {"pid": int(gone.stdout), "host": "127.0.0.1", "port": 9}
    (settings.home / PRESENCE_FILE).write_text(json.dumps(record))
    assert running(settings.home) is None
    record["pid"] = os.getpid()  # alive, but nothing listens on port 9: refused
    (settings.home / PRESENCE_FILE).write_text(json.dumps(record))
    assert "via askalong serve" not in asked(*QUESTION)
