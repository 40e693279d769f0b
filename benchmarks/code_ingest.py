"""Reading code: ingest speed over the standard library, and code context against plain
retrieval on a code-question set (issue 17).

1. Parse + chunk every ``.py`` file of the standard library this interpreter runs on
   (``site-packages`` left out), in one process (one core) and in a pool of two worker
   processes (two cores): files/s and chunks/s, median of ``--runs``, by the wall clock and
   by the CPU time each core spent (on a machine shared by other work the wall clock mostly
   measures the others; the CPU figure is what an idle machine of these cores gives). Each
   measurement runs in a child process on the code of a ``--src`` tree (repeatable: main's
   ``src`` beside this one), the trees taking turns run by run, so a change of load
   falls on both.
2. ``code_questions.jsonl`` (34 questions written for this benchmark over asyncio,
   threading, queue, concurrent.futures and Debian's golang.org/x/sync): each is asked at
   a line of a function, and its gold is the function (or class) that must be in the
   evidence to answer it. Hit rate, in the same run and the same library (keyword route
   only): with code context (what ``ask --at FILE:LINE`` gathers) and with plain
   retrieval (the anchor block and its section neighbours, then search with the question
   and the anchor over the repository, as a prose document is read along).

    python benchmarks/code_ingest.py [--runs 3] [--go DIR] [--src DIR ...] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # helpers.code_samples: the stdlib and Go source

from _table import write_results  # noqa: E402
from helpers.code_samples import STDLIB, copy_stdlib, go_sync  # noqa: E402

QUESTIONS = Path(__file__).with_name("code_questions.jsonl")
REPOSITORY = ("asyncio", "concurrent", "threading.py", "queue.py")
GO_PACKAGES = ("semaphore", "errgroup", "singleflight")


def stdlib_files() -> list[Path]:
    return sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)


def parse_and_chunk(path: Path) -> int:
    from askalong.chunk.code import chunk_code
    from askalong.parse.code.parser import parse

    try:
        parsed = parse(path.read_bytes(), source=str(path))
    except Exception:  # an empty __init__.py, an undecodable test file: counted as 0
        return 0
    return len(chunk_code("d", parsed.blocks))


def timed(files: list[Path], workers: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (this process, or the workers) and chunks made."""
    started, cpu = time.perf_counter(), _cpu()
    if workers == 1:
        chunks = sum(map(parse_and_chunk, files))
    else:
        pool = multiprocessing.get_context("fork").Pool(workers)
        chunks = sum(pool.map(parse_and_chunk, files, chunksize=16))
        pool.close()
        pool.join()  # the workers' CPU time is counted once they are waited for
    return time.perf_counter() - started, _cpu() - cpu, chunks


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure_ingest(workers: int) -> None:
    """The child's part: one timed parse + chunk of the whole folder, as JSON."""
    files = stdlib_files()
    parse_and_chunk(files[0])  # grammars loaded before the clock starts
    seconds, cpu, chunks = timed(files, workers)
    print(json.dumps({"files": len(files), "chunks": chunks, "wall": seconds, "cpu": cpu}))


def ingest_rows(sources: list[Path], runs: int) -> list[str]:
    """One row per tree and process count: medians of ``runs`` child measurements."""
    measured: dict[tuple[Path, int], list[dict[str, float]]] = {}
    for _ in range(runs):
        for src in sources:
            for workers in (1, 2):
                measured.setdefault((src, workers), []).append(_child(src, workers))
    rows = []
    for (src, workers), results in measured.items():
        seconds = statistics.median(m["wall"] for m in results)
        cpu = statistics.median(m["cpu"] for m in results)
        files, chunks = results[0]["files"], results[0]["chunks"]
        per_core = cpu / workers  # CPU seconds each core spent: files/s on idle cores
        rows.append(
            f"| {src} | {workers} | {files:.0f} | {chunks:.0f} | {seconds:.1f} | {cpu:.1f} | "
            f"{files / seconds:.0f} | {chunks / seconds:.0f} | "
            f"{files / per_core:.0f} | {chunks / per_core:.0f} | {_loads(results)} |"
        )
    return rows


def _loads(results: list[dict[str, float]]) -> str:
    loads = [m["load"] for m in results]
    return f"{min(loads):.1f}-{max(loads):.1f}"


def _child(src: Path, workers: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}  # that tree's askalong
    command = [sys.executable, __file__, "--measure-ingest", str(workers)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{src}: {done.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    result["load"] = os.getloadavg()[0]
    return result


def build_library(home: Path, go_root: Path) -> None:
    """The repository (stdlib parts and x/sync) added with the CLI, keyword route only."""
    from click.testing import CliRunner

    from askalong.cli import main

    folder = copy_stdlib(home / "repo", *REPOSITORY)
    sync = go_sync(go_root)
    for package in GO_PACKAGES:
        (folder / package).mkdir()
        for source in (sync / package).glob("*.go"):
            (folder / package / source.name).write_bytes(source.read_bytes())
    result = CliRunner().invoke(main, ["add", "--no-embed", "--json", str(folder)])
    if result.exit_code != 0:
        raise SystemExit(result.output)


def question_rows() -> tuple[list[str], int, int, int]:
    from askalong.asking.code_reading import repository_of
    from askalong.asking.evidence import gather
    from askalong.asking.question import Question, Reading, asked_question
    from askalong.context.anchor import located_context
    from askalong.context.line_anchor import LineRef, line_anchor, names_file
    from askalong.library import opened_library
    from askalong.types import Access

    items = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    access = Access.local()
    rows, code_hits, plain_hits = [], 0, 0
    with opened_library() as library:
        documents = library.store.list_documents(access)
        for item in items:
            document = next(d for d in documents if names_file(d.source, item["file"]))
            blocks = library.store.blocks(document.id)
            line = _line(blocks, item)
            anchor = line_anchor(document.id, blocks, LineRef(item["file"], line, line))
            asked = asked_question(
                Question(item["question"], anchor=anchor), (), Reading(anchor, document, blocks)
            )
            gold = tuple(item["gold"].split("."))
            code = {
                u.section_path
                for u in gather(library.store, library.searcher, asked, access, blocks).units
            }
            assert asked.anchor is not None
            unit = located_context(blocks, asked.anchor)
            repository = repository_of(library.store, document, blocks, access)
            ids = tuple(f.document_id for f in repository.files)
            query = f"{asked.question.text}\n{unit.cited_text()}"
            found = library.searcher.search(
                query, access, documents=ids, k_max=library.searcher.policy.k_max_read_along
            )
            plain = {unit.section_path} | {
                library.store.chunk(h.chunk_id).section_path for h in found.hits
            }
            code_hits += gold in code
            plain_hits += gold in plain
            rows.append(
                f"| {item['file']}:{line} | {item['question']} | {item['gold']} | "
                f"{'yes' if gold in code else 'no'} | {'yes' if gold in plain else 'no'} |"
            )
    return rows, code_hits, plain_hits, len(items)


def _line(blocks: tuple, item: dict[str, str]) -> int:  # type: ignore[type-arg]
    within = tuple(item["within"].split("."))
    for block in blocks:
        if block.section_path == within and block.lines and item["line"] in block.text:
            offset = block.text.index(item["line"])
            return block.lines[0] + block.text[:offset].count("\n")
    raise SystemExit(f"{item['file']}: {item['line']!r} not found in {item['within']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--go", type=Path, default=None, help="where x/sync is fetched to")
    parser.add_argument("--src", type=Path, action="append", help="a code tree's src/")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--measure-ingest", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_ingest:
        measure_ingest(args.measure_ingest)
        return
    started = os.getloadavg()[0]
    ingest = ingest_rows(args.src or [ROOT / "src"], args.runs)
    with tempfile.TemporaryDirectory(prefix="aa-code-") as home:
        os.environ["ASKALONG_HOME"] = home
        os.environ["ASKALONG_EMBEDDER"] = "none"
        build_library(Path(home), args.go or Path(home) / "go")
        rows, code, plain, total = question_rows()
    lines = [
        f"# Reading code, {datetime.date.today()} ({platform.python_version()}, "
        f"{os.cpu_count()} cores, load {started:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end)",
        "",
        f"## Parse + chunk, the standard library's .py files (median of {args.runs})",
        "",
        "Two processes: a pool of two workers (``multiprocessing``, fork), the files dealt"
        " out 16 at a time; CPU s is the workers' total, files/s (CPU) per core of it.",
        "",
        "| code | processes | files | chunks | wall s | CPU s | files/s (wall) |"
        " chunks/s (wall) | files/s (CPU) | chunks/s (CPU) | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *ingest,
        "",
        f"## Code questions ({total}): the gold function in the evidence",
        "",
        f"code context **{code}/{total} = {code / total:.2f}**, plain retrieval "
        f"**{plain}/{total} = {plain / total:.2f}** (keyword route, same library, same run)",
        "",
        "| at | question | gold | code context | plain |",
        "|---|---|---|---|---|",
        *rows,
    ]
    write_results("\n".join(lines) + "\n", f"code-ingest-{datetime.date.today()}.md", args.out)


if __name__ == "__main__":
    main()
