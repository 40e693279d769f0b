"""What the reader encoder (``e5/reader.py``) adds to a learned answer: CPU time to
embed one question's candidates (``sentence_rows.MAX_CANDIDATES`` sentences of an XQuAD
article, English and Chinese) with it, beside the plain e5 embedding the answerer already
does for the same candidates, cold (sentences not seen before: a first question) and warm
(the sentence caches hold them: a follow-up). Two ways in the same run: the reader as a
model of its own ("separate": all twelve layers run again, as before the shared trunk)
and on the plain model's trunk ("shared", ``e5/trunk.py``: its two layers alone), and
each way's resident memory in a fresh process (e5 alone, then with the reader).

    PYTHONPATH=src:benchmarks python benchmarks/reader_cost.py [--questions 20]
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _table import markdown_table, write_results
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.extractive.sentence_rows import MAX_CANDIDATES
from askalong.providers.base import Embedder
from askalong.providers.local.e5.model import FastE5Embedder
from askalong.providers.local.e5.reader import reader_layers
from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")
WAYS = ("separate", "shared")
Asked = list[tuple[str, list[str]]]


def question_sets(language: str, count: int) -> Asked:
    """``count`` (question, candidate sentences) pairs: a paragraph's first question and
    the sentences of it and the next two (the answerer reads about three passages)."""
    data = json.loads((EVALDATA / f"qa/xquad/xquad.{language}.json").read_text("utf-8"))
    paragraphs = [p for article in data["data"] for p in article["paragraphs"]]
    out = []
    for k in range(0, len(paragraphs) - 2, 3)[:count]:
        text = " ".join(p["context"] for p in paragraphs[k : k + 3])
        sentences = [s for s in SENTENCE_END.split(text) if s.strip()]
        out.append((paragraphs[k]["qas"][0]["question"], sentences[:MAX_CANDIDATES]))
    return out


def embedders(cache: Path, engine: str, way: str) -> tuple[FastE5Embedder, Embedder]:
    """The plain model and its reader encoder, ``separate`` or ``shared``."""
    plain = FastE5Embedder(cache, engine=engine)  # type: ignore[arg-type]
    if way == "separate":
        return plain, FastE5Embedder(cache, engine=engine, upper=reader_layers())  # type: ignore[arg-type]
    reader = plain.reader()
    assert reader is not None
    return plain, reader


def cpu_ms(plain: Embedder, reader: Embedder, asked: Asked) -> tuple[list[float], list[float]]:
    """CPU ms per question, e5's and the reader's: the question and its candidates
    embedded by each, in the answerer's order (e5 first)."""
    times: tuple[list[float], list[float]] = ([], [])
    for question, sentences in asked:
        for embedder, spent in zip((plain, reader), times, strict=True):
            clock = time.process_time()
            embedder.embed_query(question)
            embedder.embed_passages(sentences)
            spent.append(1000 * (time.process_time() - clock))
    return times


def timed_rows(cache: Path, engine: str, count: int) -> list[tuple[str, ...]]:
    """Median CPU ms per question by language, encoder and way; the ways take turns
    question by question, so a change of load falls on both."""
    rows = []
    pairs = {way: embedders(cache, engine, way) for way in WAYS}
    for language in ("en", "zh"):
        asked = question_sets(language, count)
        for plain, reader in pairs.values():
            cpu_ms(plain, reader, asked[-2:])  # sessions warmed (on sentences not asked)
        cached = {way: (CachedEmbedder(p), CachedEmbedder(r)) for way, (p, r) in pairs.items()}
        times: dict[str, list[tuple[list[float], list[float]]]] = {way: [] for way in WAYS}
        again: dict[str, list[tuple[list[float], list[float]]]] = {way: [] for way in WAYS}
        for spent in (times, again):  # cold, then warm (the sentence caches hold them)
            for one in asked[:-2]:
                for way in WAYS:
                    spent[way].append(cpu_ms(*cached[way], [one]))
        for way in WAYS:
            for name, k in (("e5 (already paid)", 0), (f"reader, {way} (added)", 1)):
                cold = statistics.median(t[k][0] for t in times[way])
                warm = statistics.median(t[k][0] for t in again[way])
                rows.append((language, name, f"{cold:.1f}", f"{warm:.1f}"))
    return rows


def resident_mb(cache: Path, engine: str, way: str, count: int) -> tuple[float, float]:
    """RSS of a fresh process (graphs cached) once it embedded ``count`` questions' worth
    with e5 and, unless ``way`` is ``plain``, the reader encoder: as held, and once the
    heap's free pages went back (``malloc_trim``: what the objects hold)."""
    command = [sys.executable, __file__, "--rss-of", way, "--cache", str(cache)]
    command += ["--engine", engine, "--questions", str(count)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    held, trimmed = done.stdout.split()[-2:]
    return float(held), float(trimmed)


def rss_child(cache: Path, engine: str, way: str, count: int) -> None:
    asked = question_sets("en", count) + question_sets("zh", count)
    plain, reader = embedders(cache, engine, way) if way in WAYS else (None, None)
    plain = plain or FastE5Embedder(cache, engine=engine)  # type: ignore[arg-type]
    for question, sentences in asked:
        for embedder in (plain, reader) if reader else (plain,):
            embedder.embed_query(question)
            embedder.embed_passages(sentences)
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    ctypes.CDLL("libc.so.6").malloc_trim(0)  # freed heap pages back: what stays held
    trimmed = int(Path("/proc/self/statm").read_text().split()[1])
    print(f"{pages * os.sysconf('SC_PAGE_SIZE') / 2**20:.1f}", end=" ")
    print(f"{trimmed * os.sysconf('SC_PAGE_SIZE') / 2**20:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--engine", choices=("onnx", "numpy"), default="onnx")
    parser.add_argument("--out", type=Path, default=None, help="results file (default: dated)")
    parser.add_argument("--rss-of", choices=("plain", *WAYS), help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_of:
        return rss_child(args.cache, args.engine, args.rss_of, args.questions)
    with tempfile.TemporaryDirectory(prefix="reader-cost-") as scratch:
        cache = Path(scratch)
        rows = timed_rows(cache, args.engine, args.questions + 2)
        ways = ("plain", *WAYS)
        rss = {way: resident_mb(cache, args.engine, way, args.questions) for way in ways}
    sentences = statistics.mean(len(s) for _, s in question_sets("en", args.questions))
    header = ("language", "encoder", "cold CPU ms / question", "warm CPU ms / question")
    memory = [
        (way, *(f"{rss[way][k]:.0f} ({rss[way][k] - rss['plain'][k]:+.0f})" for k in (0, 1)))
        for way in WAYS
    ]
    text = "\n".join(
        [
            "# The reader encoder's cost: a model of its own against the shared trunk\n",
            f"Engine {args.engine}; {args.questions} questions a language, "
            f"{sentences:.1f} candidate sentences a question (en); load "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end.\n",
            markdown_table(header, "llrr", rows),
            "Resident memory of a fresh process once it embedded them, MB (added to e5 "
            f"alone: {rss['plain'][0]:.0f} as held, {rss['plain'][1]:.0f} trimmed):\n",
            markdown_table(("reader encoder", "RSS as held", "RSS, heap trimmed"), "lrr", memory),
        ]
    )
    date = datetime.date.today().isoformat()
    write_results(text, f"reader-cost-{date}.md", args.out)


if __name__ == "__main__":
    main()
