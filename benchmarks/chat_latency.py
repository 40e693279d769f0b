"""The chat agent offline, two code trees side by side (issue 15, latency): each tree's
``src/`` answers the same questions over the same library in its own process
(``chat.py --times``, queries on the fast port), in the order A B B A so that a drift in
the shared machine's load falls on both alike; the table gives each tree's end-to-end
p50 / p95, CPU time per question (the process's own, every thread) and the ratios to the
first tree, plus whether the trees judged every part alike.

    python benchmarks/chat_latency.py --home LIBRARY --src /tmp/base/src --src src
        [--questions tests/data/chat_dev.jsonl] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
from chat import QUESTIONS, percentile  # noqa: E402


def one_run(src: Path, home: Path, questions: Path) -> list[dict[str, Any]]:
    """One tree's outcomes, from a fresh process that imports that tree's code."""
    with tempfile.TemporaryDirectory(prefix="chat-latency-") as folder:
        times = Path(folder) / "times.json"
        env = {**os.environ, "PYTHONPATH": str(src), "PYTHONDONTWRITEBYTECODE": "1"}
        command = [sys.executable, str(ROOT / "chat.py"), "--home", str(home)]
        command += ["--questions", str(questions), "--times", str(times), "--fast-queries"]
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        return list(json.loads(times.read_text(encoding="utf-8")))


def _figures(rows: list[dict[str, Any]]) -> dict[str, float]:
    wall = [r["ms"] for r in rows]
    cpu = [r["cpu_ms"] for r in rows]
    return {
        "p50": statistics.median(wall),
        "p95": percentile(wall, 0.95),
        "cpu50": statistics.median(cpu),
        "cpu95": percentile(cpu, 0.95),
        "parts": sum(sum(r["parts_ok"]) for r in rows),
        "both": sum(r["ok"] for r in rows),
    }


def table(sources: list[Path], runs: dict[Path, list[list[dict[str, Any]]]]) -> str:
    """Each tree's figures over all of its runs, and the ratio to the first tree's."""
    figures = {src: _figures([r for run in runs[src] for r in run]) for src in sources}
    first = figures[sources[0]]
    lines = [
        "| tree | runs | p50 | p95 | CPU p50 / p95 | parts ok | both ok | p50 ratio | CPU ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for src in sources:
        f = figures[src]
        lines.append(
            f"| {src} | {len(runs[src])} | {f['p50']:.0f} ms | {f['p95']:.0f} ms "
            f"| {f['cpu50']:.0f} / {f['cpu95']:.0f} ms | {f['parts']:.0f} | {f['both']:.0f} "
            f"| {f['p50'] / first['p50']:.2f} | {f['cpu50'] / first['cpu50']:.2f} |"
        )
    judged = {src: [r["parts_ok"] for r in runs[src][0]] for src in sources}
    alike = all(judged[src] == judged[sources[0]] for src in sources)
    lines.append("")
    lines.append(f"every part judged alike by every tree: {'yes' if alike else 'no'}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--src", type=Path, action="append", help="a code tree's src/")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--out", type=Path, default=None, help="write the table here too")
    args = parser.parse_args(argv)
    sources = [s.resolve() for s in (args.src or [ROOT.parent / "src"])]
    order = sources + sources[::-1]  # A B B A
    runs: dict[Path, list[list[dict[str, Any]]]] = {src: [] for src in sources}
    for src in order:
        runs[src].append(one_run(src, args.home, args.questions))
        print(f"done: {src}", file=sys.stderr, flush=True)
    text = table(sources, runs)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
