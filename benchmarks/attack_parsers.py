"""The parser fuzz (issue 11's suite): mutated real files through detection and every parser.

    nice -n 10 .venv/bin/python benchmarks/attack_parsers.py [--cases 10000] [--seed 11]
        [--formats pdf,docx,html,markdown,text,detect] [--workers 10 --parts 2] [--out t.md]
    .venv/bin/python benchmarks/attack_parsers.py --format html --seed 11 --case 1234 \\
        [--save case.html]   # one case again, in this process, with its traceback

Cases (``fuzz_mutate.py`` over ``fuzz_seeds.py``) go to one child process under the parser
guard's memory limit that parses them one after another, each under its own alarm
(``fuzz_child.py``): tens of cases a second where a process per case managed ten. A case
that hangs in C code past the watchdog, or kills the child, is a failure; the child is
started again and the run goes on. ``detect`` runs detection alone and also holds it to a
time per byte (it must be linear). Prints a markdown table: cases per format, how each
ended, failures (each with the seed and number that make it again), the slowest case.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from askalong.settings import Settings
from evaldata import EVALDATA
from fuzz_child import Outcome, case_limit, run_case, serve
from fuzz_mutate import Seeds, case_bytes
from fuzz_seeds import corpus

FORMATS = ("pdf", "docx", "html", "markdown", "text", "detect")
EXTENSIONS = {"pdf": "pdf", "docx": "docx", "html": "html", "markdown": "md", "text": "txt"}
START_SECONDS = 600.0  # a loaded machine can take minutes to start a child and its imports
WATCHDOG_SECONDS = 20.0  # past the case's alarm: the child is stuck where it cannot reach
DETECT_SECONDS = 0.05  # detection may take this plus DETECT_PER_BYTE a byte
DETECT_PER_BYTE = 0.5e-6
EXAMPLES = 8
PROGRESS = 1000  # cases between two progress lines


class BatchChild:
    """One child process that parses case after case; replaced when it dies or hangs."""

    def __init__(self, memory_mb: int = Settings.parse_memory_mb) -> None:
        self.memory_mb = memory_mb
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self.restarts = 0

    def run(self, fmt: str, data: bytes, source: str) -> Outcome:
        conn = self._connection()
        started = time.perf_counter()
        conn.send((fmt, data, source))
        limit = case_limit(len(data)) + WATCHDOG_SECONDS
        if not conn.poll(limit):
            self._stop()
            return Outcome("failure", f"hung past {limit:.0f} s (child killed)", limit)
        try:
            outcome: Outcome = conn.recv()
        except (EOFError, OSError):
            code = self._stop()
            spent = time.perf_counter() - started
            return Outcome("failure", f"the child died (exit code {code})", spent)
        if outcome.restart:
            self._stop()
        return outcome

    def _connection(self) -> Connection:
        if self._process is None or self._conn is None or not self._process.is_alive():
            self._stop()
            parent, child = self._context.Pipe()
            args = (child, self.memory_mb)
            self._process = self._context.Process(target=serve, args=args, daemon=True)
            self._process.start()
            child.close()
            if not parent.poll(START_SECONDS) or parent.recv() != "ready":
                raise RuntimeError(f"the fuzz's child did not start in {START_SECONDS:g} s")
            self._conn, self.restarts = parent, self.restarts + 1
        return self._conn

    def _stop(self) -> int | None:
        code = None
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            if self._process.is_alive():
                self._process.join(timeout=2)
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
            code = self._process.exitcode
        self._process, self._conn = None, None
        return code

    def close(self) -> None:
        self._stop()


@dataclass
class Tally:
    """One format's run."""

    fmt: str
    cases: int = 0
    ends: Counter[str] = field(default_factory=Counter)  # parsed / refused / library / failure
    reached: Counter[str] = field(default_factory=Counter)  # the format detection chose
    seconds: float = 0.0
    slowest: tuple[float, int] = (0.0, -1)
    failures: dict[str, list[int]] = field(default_factory=dict)  # signature -> case numbers
    library: Counter[str] = field(default_factory=Counter)
    per_byte: float = 0.0  # detection's worst seconds per byte on cases over 64 KB
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, number: int, size: int, outcome: Outcome) -> None:
        with self.lock:  # the parts of one format run side by side
            self._record(number, size, outcome)

    def _record(self, number: int, size: int, outcome: Outcome) -> None:
        self.cases += 1
        self.seconds += outcome.seconds
        self.slowest = max(self.slowest, (outcome.seconds, number))
        kind = outcome.kind
        if self.fmt == "detect" and kind != "failure":
            if size >= 65536:
                self.per_byte = max(self.per_byte, outcome.seconds / size)
            if outcome.seconds > DETECT_SECONDS + DETECT_PER_BYTE * size:
                kind = "failure"
                outcome = Outcome(kind, f"detection took {outcome.seconds:.2f} s", 0.0)
        self.ends[kind] += 1
        if kind == "parsed":
            self.reached[outcome.detail] += 1
        elif kind == "failure":
            self.failures.setdefault(signature(outcome.detail), []).append(number)
        elif kind == "library":
            self.library[signature(outcome.detail)] += 1


def signature(detail: str) -> str:
    """A failure's kind, without the numbers that differ from case to case."""
    return re.sub(r"\d+", "N", detail)[:200]


def fuzz(
    child: BatchChild,
    seeds: Seeds,
    tally: Tally,
    seed: int,
    numbers: range,
    deadline: float | None = None,
    progress: Callable[[], None] = lambda: None,
) -> Tally:
    """Cases ``numbers`` of ``tally``'s format through ``child``, recorded in ``tally``."""
    fmt = tally.fmt
    for count, number in enumerate(numbers, start=1):
        if deadline is not None and time.perf_counter() > deadline:
            break
        data = case_bytes(seeds, fmt, seed, number)
        tally.record(number, len(data), child.run(fmt, data, source_name(fmt, seed, number)))
        if count % PROGRESS == 0:
            progress()
    return tally


def fuzz_formats(
    formats: Sequence[str],
    seed: int,
    cases: int,
    workers: int = 1,
    seconds: float | None = None,
    parts: int = 1,
    out: Path | None = None,
) -> list[Tally]:
    """Every format in ``formats``, its cases cut into ``parts`` run side by side,
    ``workers`` parts at a time, each with its own child, each for its cases or ``seconds``
    (if given), whichever ends first. With ``out``, the table so far is written there
    every ``PROGRESS`` cases a part (a run stopped early still leaves its figures)."""
    seeds, started = corpus(EVALDATA), time.perf_counter()
    tallies = {fmt: Tally(fmt) for fmt in formats}
    bounds = [cases * part // parts for part in range(parts + 1)]
    jobs = [(fmt, range(a, b)) for fmt in formats for a, b in itertools.pairwise(bounds)]
    writing = threading.Lock()

    def progress() -> None:
        with writing:
            print(", ".join(f"{t.fmt} {t.cases}" for t in tallies.values()), file=sys.stderr)
            if out is not None:
                wall = time.perf_counter() - started
                out.write_text(table(list(tallies.values()), seed, wall) + "\n")

    def one(job: tuple[str, range]) -> None:
        child = BatchChild()
        deadline = None if seconds is None else time.perf_counter() + seconds
        try:
            fuzz(child, seeds, tallies[job[0]], seed, job[1], deadline, progress)
        finally:
            child.close()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, jobs))
    progress()
    return list(tallies.values())


def source_name(fmt: str, seed: int, number: int) -> str:
    return f"{fmt}-{seed}-{number}.{EXTENSIONS.get(fmt, 'bin')}"


def table(tallies: Sequence[Tally], seed: int, wall: float) -> str:
    lines = [
        f"Seed {seed}; {wall:,.0f} s of wall time.",
        "",
        "| format | cases | parsed | refused | refused (a library's error) | failures"
        " | slowest case (s, number) | cases/s | parsed as |",
        "|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for t in tallies:
        with t.lock:
            lines.append(_row(t))
    lines += ["", "Failures (signature: case numbers):", ""]
    for t in tallies:
        for sig, numbers in list(t.failures.items())[:EXAMPLES]:
            lines.append(f"- {t.fmt}: `{sig}`: {len(numbers)} cases, e.g. #{sorted(numbers)[:5]}")
    lines += ["", "Refused through a library's own error (signature: cases):", ""]
    for t in tallies:
        for sig, count in t.library.most_common(EXAMPLES):
            lines.append(f"- {t.fmt}: `{sig}`: {count}")
    detect = [t for t in tallies if t.fmt == "detect"]
    if detect:
        worst = detect[0].per_byte * 1e9
        lines += ["", f"Detection, worst time per byte over 64 KB: {worst:.1f} ns"]
    return "\n".join(lines)


def _row(t: Tally) -> str:
    reached = ", ".join(f"{name} {count}" for name, count in t.reached.most_common())
    rate = t.cases / t.seconds if t.seconds else 0.0  # per child: seconds are the cases' own
    return (
        f"| {t.fmt} | {t.cases:,} | {t.ends['parsed']:,} | {t.ends['refused']:,} | "
        f"{t.ends['library']:,} | {t.ends['failure']:,} | {t.slowest[0]:.2f} "
        f"(#{t.slowest[1]}) | {rate:,.0f} | {reached} |"
    )


def reproduce(fmt: str, seed: int, number: int, save: Path | None) -> None:
    """One case in this process (no child, no alarm): its outcome and its traceback."""
    data = case_bytes(corpus(EVALDATA), fmt, seed, number)
    if save is not None:
        save.write_bytes(data)
    print(f"{len(data):,} bytes: {run_case(fmt, data, source_name(fmt, seed, number), 3600)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="per format")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--format", choices=FORMATS, help="with --case: the case's format")
    parser.add_argument("--case", type=int, help="make and run this one case again")
    parser.add_argument("--save", type=Path, help="with --case: write its bytes here")
    parser.add_argument("--out", type=Path, help="also write the table here")
    parser.add_argument("--workers", type=int, default=1, help="children running at once")
    parser.add_argument("--parts", type=int, default=1, help="a format's cases cut in parts")
    args = parser.parse_args()
    if args.case is not None:
        reproduce(args.format, args.seed, args.case, args.save)
        return
    started = time.perf_counter()
    formats = args.formats.split(",")
    tallies = fuzz_formats(
        formats, args.seed, args.cases, args.workers, parts=args.parts, out=args.out
    )
    report = table(tallies, args.seed, time.perf_counter() - started)
    print(report)
    if args.out is not None:
        args.out.write_text(report + "\n")


if __name__ == "__main__":
    main()
