"""Parallel adds and the vector rows they leave (issue 11, item 10): N `askalong add`
processes started at once, one real page of the PostgreSQL manual each, with the local
embedder, against one fresh ASKALONG_HOME; then the rows of the vector index are counted
(rows, live, dead) and `askalong doctor --json` is run.

Each source tree named is run in turn in the same invocation (the baseline first), so the
figures compare on the same machine state:

    python benchmarks/parallel_adds.py --src ../main/src --src src [--adds 20]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evaldata import EVALDATA

PAGES = EVALDATA / "manuals" / "postgresql-15-html"
COMMAND = "import sys; from askalong.cli import main; sys.argv[0] = 'askalong'; main()"


def run(src: Path, adds: int) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="parallel-adds-"))
    env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "local"}
    env["PYTHONPATH"] = str(src.resolve())
    pages = sorted(PAGES.glob("runtime-config-*.html"))[:adds]
    started = time.perf_counter()
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", COMMAND, "add", str(page), "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for page in pages
    ]
    outputs = [process.communicate() for process in processes]  # drains both pipes
    failed = sum(process.returncode != 0 for process in processes)
    errors = {
        (err.decode().strip().splitlines() or [f"exit status {p.returncode}"])[-1]
        for p, (_, err) in zip(processes, outputs, strict=True)
        if p.returncode
    }
    wall = time.perf_counter() - started
    rows = live = 0
    for table in (home / "index" / "vectors").glob("*/rows.sqlite3"):
        with sqlite3.connect(table) as db:
            total, alive = db.execute(
                "SELECT count(*), coalesce(sum(alive), 0) FROM rows"
            ).fetchone()
        rows, live = rows + total, live + alive
    doctor = subprocess.run(
        [sys.executable, "-c", COMMAND, "doctor", "--json"], env=env, capture_output=True, text=True
    )
    kinds = (
        sorted({f["kind"] for f in json.loads(doctor.stdout)["findings"]})
        if doctor.stdout
        else ["(no doctor)"]
    )
    return {
        "src": str(src),
        "adds": len(pages),
        "failed": failed,
        "rows": rows,
        "live": live,
        "dead": rows - live,
        "wall_s": round(wall, 1),
        "doctor": ",".join(kinds) or "healthy",
        "errors": "; ".join(sorted(errors))[:120],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, action="append", required=True)
    parser.add_argument("--adds", type=int, default=20)
    args = parser.parse_args()
    for n, src in enumerate(args.src):
        result = run(src, args.adds)  # each row printed as it is done: a run takes minutes
        if n == 0:
            print("| " + " | ".join(result) + " |")
            print("|" + "---|" * len(result))
        print("| " + " | ".join(str(value) for value in result.values()) + " |", flush=True)


if __name__ == "__main__":
    main()
