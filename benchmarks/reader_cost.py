"""What the reader encoder (``e5/reader.py``) adds to a learned answer: CPU time to
embed one question's candidates (``sentence_rows.MAX_CANDIDATES`` sentences of an XQuAD
article, English and Chinese) with it, beside the plain e5 embedding the answerer already
does for the same candidates, both on the same engine in the same run, cold (sentences
not seen before: a first question) and warm (the sentence cache holds them: a follow-up).

    PYTHONPATH=src:benchmarks python benchmarks/reader_cost.py [--questions 20]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

from _table import markdown_table
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.extractive.sentence_rows import MAX_CANDIDATES
from askalong.providers.base import Embedder
from askalong.providers.local.e5.model import FastE5Embedder
from askalong.providers.local.e5.reader import reader_layers

REPO = Path(__file__).resolve().parents[1]
EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA") or REPO.parent / "shared" / "evaldata")
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


def question_sets(language: str, count: int) -> list[tuple[str, list[str]]]:
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


def cpu_ms(embedder: Embedder, asked: list[tuple[str, list[str]]]) -> list[float]:
    """CPU ms per question: the question and its candidates embedded."""
    times = []
    for question, sentences in asked:
        clock = time.process_time()
        embedder.embed_query(question)
        embedder.embed_passages(sentences)
        times.append(1000 * (time.process_time() - clock))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--engine", choices=("onnx", "numpy"), default="onnx")
    args = parser.parse_args()
    cache = Path(tempfile.mkdtemp(prefix="reader-cost-"))
    plain = FastE5Embedder(cache, engine=args.engine)
    reader = FastE5Embedder(cache, engine=args.engine, upper=reader_layers())
    rows = []
    for language in ("en", "zh"):
        asked = question_sets(language, args.questions)
        cpu_ms(plain, asked[:2]), cpu_ms(reader, asked[:2])  # sessions warmed
        for name, embedder in (("e5 (already paid)", plain), ("reader encoder (added)", reader)):
            cached = CachedEmbedder(embedder)
            cold, warm = cpu_ms(cached, asked), cpu_ms(cached, asked)
            rows.append(
                (language, name, f"{statistics.median(cold):.1f}", f"{statistics.median(warm):.1f}")
            )
    sentences = statistics.mean(len(s) for _, s in question_sets("en", args.questions))
    print(f"engine {args.engine}; {args.questions} questions a language; ")
    print(f"{sentences:.1f} candidate sentences a question (en)\n")
    header = ("language", "encoder", "cold CPU ms / question", "warm CPU ms / question")
    print(markdown_table(header, "llrr", rows))


if __name__ == "__main__":
    main()
