"""Ingestion documents/s with 1, 2 and 4 worker processes (issues 14 and 26): the N
smallest pages of the PostgreSQL manual queued with `askalong add --queue` into a fresh
ASKALONG_HOME, then `askalong worker --once` processes started together and timed until
the last one exits (every job ready). Every count runs in the same invocation, in turn,
`--repeat` times each (the median is reported), so they compare on the same machine state.
With `--postgres URL` (a server's URL; each run makes a database of its own there) the
store is PostgreSQL (server mode) instead of the home's SQLite file.

    python benchmarks/ingest_workers.py [--docs 100] [--workers 1,2,4]
        [--embedder local|none] [--repeat 1] [--postgres postgresql://…]
        [--out benchmarks/results/ingest-workers-DATE.md]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from evaldata import EVALDATA

PAGES = EVALDATA / "manuals" / "postgresql-15-html"
COMMAND = "import sys; from askalong.cli import main; sys.argv[0] = 'askalong'; main()"
SRC = Path(__file__).resolve().parents[1] / "src"


def small_pages(count: int) -> list[Path]:
    pages = sorted(PAGES.glob("*.html"), key=lambda p: (p.stat().st_size, p.name))
    return pages[:count]


def environment(home: Path, embedder: str, database_url: str) -> dict[str, str]:
    env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": embedder}
    env["PYTHONPATH"] = str(SRC)
    if database_url:
        env["ASKALONG_DATABASE_URL"] = database_url
    return env


def fresh_database(server_url: str, name: str) -> str:
    """A new empty database on the PostgreSQL server at ``server_url``; its URL."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))


def not_ready(home: Path, database_url: str) -> int:
    query = "SELECT count(*) FROM jobs WHERE state != 'ready'"
    if database_url:
        import psycopg

        with psycopg.connect(database_url) as db:
            row = db.execute(query).fetchone()
    else:
        with sqlite3.connect(home / "askalong.sqlite3") as db:
            row = db.execute(query).fetchone()
    return int(row[0]) if row else 0


def one_run(pages: list[Path], workers: int, embedder: str, postgres: str) -> tuple[float, int]:
    """Seconds from the workers' start to the last one's exit; jobs left not ready."""
    home = Path(tempfile.mkdtemp(prefix=f"ingest-workers-{workers}-"))
    url = fresh_database(postgres, f"ingest_workers_{workers}_{os.getpid()}") if postgres else ""
    env = environment(home, embedder, url)
    subprocess.run(
        [sys.executable, "-c", COMMAND, "add", "--queue", *map(str, pages)],
        env=env,
        check=True,
        capture_output=True,
    )
    started = time.perf_counter()
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", COMMAND, "worker", "--once"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(workers)
    ]
    for process in processes:
        _, err = process.communicate()
        if process.returncode:
            raise SystemExit(f"a worker failed: {err.decode()[-500:]}")
    wall = time.perf_counter() - started
    return wall, not_ready(home, url)


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--embedder", choices=("local", "none"), default="local")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--workers", default="1,2,4", help="worker counts, comma-separated")
    parser.add_argument("--postgres", default="", help="a PostgreSQL server's URL")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    pages = small_pages(args.docs)
    size_kb = sum(p.stat().st_size for p in pages) / 1024
    rows, rates = [], {}
    counts = [int(n) for n in args.workers.split(",")]
    for workers in counts:
        walls, left, loads = [], 0, []
        for _ in range(args.repeat):
            loads.append(load())
            wall, unfinished = one_run(pages, workers, args.embedder, args.postgres)
            walls.append(wall)
            left += unfinished
        wall = statistics.median(walls)
        rates[workers] = len(pages) / wall
        rows.append((workers, wall, rates[workers], left, "/".join(loads)))
        print(f"{workers} worker(s): {wall:.1f} s, {rates[workers]:.2f} docs/s", flush=True)
    lines = [
        f"# Ingestion workers, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"{len(pages)} smallest PostgreSQL manual pages ({size_kb:.0f} KB in all), embedder"
        f" `{args.embedder}`, store {'PostgreSQL' if args.postgres else 'SQLite'},"
        f" {os.cpu_count()} cores, median of {args.repeat} run(s) each;"
        " `askalong worker --once` processes started together, timed to the last exit.",
        "",
        f"| workers | wall s | docs/s | ratio to {counts[0]} | jobs not ready | load at start |",
        "|---|---|---|---|---|---|",
    ]
    for workers, wall, rate, left, loads in rows:
        ratio = rate / rates[counts[0]]
        lines.append(f"| {workers} | {wall:.1f} | {rate:.2f} | {ratio:.2f} | {left} | {loads} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
