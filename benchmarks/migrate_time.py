"""How long `askalong migrate` takes to move the PostgreSQL manual's library into server
mode (issue 26): the manual's pages added (keyword only) into a fresh ASKALONG_HOME, then
`askalong migrate --to` a fresh database of a PostgreSQL 16 the script starts (pgserver),
timed, with the rows it moved and the counts it verified.

    python benchmarks/migrate_time.py [--pages 0 (all)] [--batch 500]
        [--out benchmarks/results/migrate-DATE.md]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from _table import markdown_table, write_results
from evaldata import EVALDATA

PAGES = EVALDATA / "manuals" / "postgresql-15-html"
COMMAND = "import sys; from askalong.cli import main; sys.argv[0] = 'askalong'; main()"
SRC = Path(__file__).resolve().parents[1] / "src"


def askalong(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, *args], env=env, check=True, capture_output=True
    )
    return done.stdout.decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=0, help="the N smallest pages; 0: all")
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    import pgserver

    pages = sorted(PAGES.glob("*.html"), key=lambda p: (p.stat().st_size, p.name))
    pages = pages[: args.pages] if args.pages else pages
    work = Path(tempfile.mkdtemp(prefix="migrate-time-"))
    server = pgserver.get_server(work / "pg", cleanup_mode="stop")
    env = {**os.environ, "ASKALONG_HOME": str(work / "home"), "ASKALONG_EMBEDDER": "none"}
    env["PYTHONPATH"] = str(SRC)
    try:
        started = time.perf_counter()
        askalong(env, "add", "--no-embed", *map(str, pages))
        added = time.perf_counter() - started
        started = time.perf_counter()
        report = json.loads(
            askalong(env, "migrate", "--to", server.get_uri(), "--batch", str(args.batch), "--json")
        )
        moved = time.perf_counter() - started
    finally:
        server.cleanup()
    rows = sum(c["target"] for c in report["counts"])
    counts = {c["what"]: c["target"] for c in report["counts"]}
    table = markdown_table(
        [
            "pages",
            "documents",
            "blocks",
            "chunks",
            "rows in all",
            "add s",
            "migrate s",
            "rows/s",
            "verified",
        ],
        "rrrrrrrrl",
        [
            [
                str(len(pages)),
                f"{counts['documents']:,}",
                f"{counts['blocks']:,}",
                f"{counts['chunks']:,}",
                f"{rows:,}",
                f"{added:.1f}",
                f"{moved:.1f}",
                f"{rows / moved:,.0f}",
                str(report["verified"]),
            ]
        ],
    )
    text = (
        f"# Migrate time, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC\n\n"
        f"The PostgreSQL manual's pages added keyword only, then `askalong migrate --to` a"
        f" fresh database (pgserver's PostgreSQL 16, Unix socket, this machine:"
        f" {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}), batches of {args.batch}"
        f" rows; the migrate time includes making the schema and reading back every count.\n\n"
        + table
    )
    write_results(text, f"migrate-{datetime.now(UTC):%Y-%m-%d}.md", args.out)


if __name__ == "__main__":
    main()
