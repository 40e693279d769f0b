"""A command's process skips the collector's passes at shutdown: the heap is frozen at exit
(issue 28: ~35 CPU ms of an ``askalong ask`` went to collecting what the system frees)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = """
import atexit, gc, sys
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0))  # runs last
from askalong.cli import main
sys.argv = ["askalong", *{args!r}]
try:
    main()
except SystemExit:
    pass
"""


def frozen_line(args: list[str], home: Path) -> str:
    env = {"ASKALONG_HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    probe = PROBE.format(args=args)
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_command_freezes_the_heap_at_exit(tmp_path: Path) -> None:
    assert frozen_line(["docs"], tmp_path) == "frozen at exit: True"
