"""The attack suite's ``schemathesis`` section (issue 11, "the suite"): every route of a real
``askalong serve`` (a free port, the install token, one stored manual page) under
schemathesis for the section's budget, with every check on.

Cases are schemathesis's generated test cases; failures are its unique failures, grouped by
kind (a 5xx, a response that does not match the schema, a schema-valid request refused, a
wrong ``Allow`` header...). The run's JSON report is read back, never the console text.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from attack_common import Row, spawned
from evaldata import EVALDATA

SEED_DOCUMENT = "manuals/postgresql-15-html/sql-select.html"
WORKERS = 2  # the machine's cores


def schemathesis(seconds: float, rng: random.Random) -> Row:
    row = Row("schemathesis")
    command = Path(sys.executable).parent / "schemathesis"
    if not command.is_file():
        raise SystemExit(f"{command}: not installed (pip install schemathesis, the dev extra)")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, spawned(Path(scratch) / "home") as (server, _):
        server.upload(EVALDATA / SEED_DOCUMENT)
        report = Path(scratch) / "report.json"
        arguments = [
            *("run", f"{server.url}/openapi.json"),
            *("-H", f"Authorization: Bearer {server.token}"),
            *("--max-time", str(max(1, round(seconds)))),
            *("--checks", "all", "--workers", str(WORKERS), "--seed", str(rng.randrange(2**31))),
            *("--report", "json", "--report-json-path", str(report), "--no-shrink"),
        ]
        subprocess.run([str(command), *arguments], capture_output=True, check=False, cwd=scratch)
        if not report.is_file():
            raise SystemExit(f"schemathesis wrote no report at {report}")
        summary = json.loads(report.read_text(encoding="utf-8"))
    row.cases = summary["test_cases"]["generated"]
    row.slowest_ms = (time.perf_counter() - started) * 1000  # the whole run: no per case time
    for failure in summary["failures"]:
        row.failures += failure["count"]
        row.examples.append(
            f"{failure['code']} {failure['title']} x{failure['count']}:"
            f" {', '.join(failure['operations'][:4])}"
        )
    tested = summary["operations"]
    row.note = (
        f"{tested['tested']}/{tested['total']} operations tested, {len(summary['errors'])} errors;"
        f" routes never reached past 404: {summary['warnings']['missing_test_data'] or 'none'}"
    )
    return row
