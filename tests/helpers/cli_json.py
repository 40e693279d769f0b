"""The CLI run in-process with ``--json``, its output parsed (a failed command fails)."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from askalong.cli import main


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
