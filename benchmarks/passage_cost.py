"""CPU cost of the passage model (issue 32 goal: ≤ 400 ms for 20 passages on 2 cores):
features of 20 retrieved passages of a manual (each ~1,200 characters, eight sentences)
and both heads, median CPU ms of 15 runs, English and Chinese. No vectors are computed:
the passage model reads the search's own ranks and cosines.

    PYTHONPATH=src .venv/bin/python benchmarks/passage_cost.py [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from askalong.answer.scorer.passage_model import shipped_passage_scorer
from askalong.answer.scorer.passages import Passage, passage_features
from askalong.text.sentences import split_sentences

ENGLISH = (
    "VACUUM reclaims storage occupied by dead tuples. In normal operation, tuples that "
    "are deleted or obsoleted by an update are not physically removed from their table. "
)
CHINESE = "长江是亚洲第一长河，全长约六千三百公里。它发源于青藏高原的唐古拉山脉。"
QUESTIONS = {"en": ("What does VACUUM reclaim?", ENGLISH), "zh": ("长江发源于哪里？", CHINESE)}


def passages(text: str, n: int = 20) -> list[Passage]:
    body = text * 8
    sentences = tuple(body[a:b] for a, b in split_sentences(body))
    return [
        Passage(f"{k} {body}", sentences, f"Section {k}", -k / 10, k + 1, 10.0 - k / 3, k + 1, 0.8)
        for k in range(n)
    ]


def cpu_ms(question: str, found: list[Passage]) -> float:
    scorer = shipped_passage_scorer()
    runs = []
    for _ in range(15):
        started = time.process_time()
        rows = passage_features(question, found)
        scorer.answerable_probability(rows, scorer.scores(rows))
        runs.append((time.process_time() - started) * 1000)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    lines = ["| language | passages | CPU ms (median of 15) |", "|---|---:|---:|"]
    for language, (question, text) in QUESTIONS.items():
        lines.append(f"| {language} | 20 | {cpu_ms(question, passages(text)):.1f} |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        args.out.write_text(f"# Passage model cost (2026-12-05)\n\n{table}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
