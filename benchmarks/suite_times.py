"""Where the test suite's time goes: wall and CPU seconds per test phase, summed by directory
and by file.

Record (a pytest plugin; each xdist worker writes its own file)::

    PYTHONPATH=benchmarks SUITE_TIMES=/tmp/times.jsonl .venv/bin/python -m pytest \\
        -p suite_times -m "not sweep"

Summarise (markdown tables)::

    .venv/bin/python benchmarks/suite_times.py /tmp/times.jsonl [--files 30]

CPU is this process's own (its threads included: the in-process servers); a server or
Chromium started as a child process counts only once it has been waited for, so the e2e
tests' CPU is mostly missing and their wall share is the figure to read.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _record(item: pytest.Item, phase: str) -> Generator[None, None, None]:
    wall, (cpu, child) = time.perf_counter(), _cpu()
    load = os.getloadavg()[0]
    yield
    cpu_after, child_after = _cpu()
    row = {"id": item.nodeid, "phase": phase, "wall": time.perf_counter() - wall}
    row |= {"cpu": cpu_after - cpu, "child": child_after - child, "load": load}
    path = os.environ.get("SUITE_TIMES", "suite-times.jsonl")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    with Path(f"{path}.{worker}" if worker else path).open("a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    yield from _record(item, "setup")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    yield from _record(item, "call")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    yield from _record(item, "teardown")


def directory(nodeid: str) -> str:
    return "/".join(nodeid.split("::")[0].split("/")[:2])


def file(nodeid: str) -> str:
    return nodeid.split("::")[0]


def table(rows: list[dict[str, Any]], key: Callable[[str], str], limit: int | None) -> str:
    sums: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        total = sums[key(row["id"])]
        total["wall"] += row["wall"]
        total["cpu"] += row["cpu"]
        total[row["phase"]] += row["wall"]
        total["tests"] += row["phase"] == "call"
    wall = sum(r["wall"] for r in rows) or 1.0
    cpu = sum(r["cpu"] for r in rows) or 1.0
    lines = [
        f"| {key.__name__} | tests | wall s | wall % | setup s | call s | CPU s | CPU % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in sorted(sums.items(), key=lambda kv: -kv[1]["wall"])[:limit]:
        lines.append(
            f"| {name} | {t['tests']} | {t['wall']:.0f} | {100 * t['wall'] / wall:.1f} "
            f"| {t['setup']:.0f} | {t['call']:.0f} | {t['cpu']:.1f} | {100 * t['cpu'] / cpu:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("times", nargs="+", type=Path, help="jsonl files the plugin wrote")
    parser.add_argument("--files", type=int, default=30, help="files listed, slowest first")
    args = parser.parse_args()
    rows = [json.loads(line) for path in args.times for line in path.open(encoding="utf-8")]
    loads = [r["load"] for r in rows]
    print(
        f"{len({r['id'] for r in rows})} tests, wall {sum(r['wall'] for r in rows):.0f} s, "
        f"CPU {sum(r['cpu'] for r in rows):.0f} s, load {min(loads):.1f}-{max(loads):.1f}\n"
    )
    print(table(rows, directory, None) + "\n")
    print(table(rows, file, args.files))


if __name__ == "__main__":
    main()
