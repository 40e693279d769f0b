"""Every script under ``benchmarks/`` and ``training/`` still imports as run alone, and asks
only for names its repository modules still have (``helpers/script_imports.py``): a
benchmark importing a helper that a refactor renamed (``learned._kept``) could not run and
nobody noticed until it was needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from script_imports import CHECKER, repository_scripts

from conftest import REPO


def failures(scripts: list[Path]) -> dict[str, str]:
    """The checker's verdict, in a fresh interpreter (scripts change ``sys.path``)."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [sys.executable, str(CHECKER), *map(str, scripts)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    return json.loads(done.stdout)


def test_every_benchmark_and_training_script_imports() -> None:
    scripts = repository_scripts()
    assert len(scripts) > 100
    assert failures(scripts) == {}


def test_a_stale_name_and_a_borrowed_path_are_caught(tmp_path: Path) -> None:
    stale = tmp_path / "stale.py"
    stale.write_text("from askalong.answer.extractive.learned import _kept\n")
    lazy = tmp_path / "lazy.py"  # inside a function: loading does not run it
    lazy.write_text("def f():\n    from unseen_set import no_such_name\n")
    borrowed = tmp_path / "borrowed.py"  # tests/helpers is on the path only after attack_common
    borrowed.write_text("from chat_server import ScriptedChatServer\n")
    found = failures([stale, lazy, borrowed])
    assert "_kept" in found[str(stale)]
    assert "unseen_set.no_such_name" in found[str(lazy)]
    assert "chat_server" in found[str(borrowed)]
