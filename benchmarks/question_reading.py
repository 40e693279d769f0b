"""What reading a question once costs (``askalong.question.reading``): CPU microseconds of
``read_question`` alone (the readings every ask takes) and with the readings only some
stages ask for (the parts, what it asks of code, whether it names its subject, whether it
asks to rate), on questions in English, Simplified and Traditional Chinese.

Each question is read ``REPEATS`` times in each of ``ROUNDS`` rounds; the table gives the
median round's mean, on a shared machine.

    PYTHONPATH=src python benchmarks/question_reading.py [--out PATH]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from _table import markdown_table, write_results
from askalong.question.reading import QuestionReading, read_question

QUESTIONS = (
    ("en", "What loss is used to train SPECTER?"),
    ("en, two parts", "How does TRUNCATE empty a table? And also what is a tablespace?"),
    ("zh-Hans", "线程池应该怎么创建？"),
    ("zh-Hant", "線程池應該怎麼創建？"),
    ("zh-Hant, two parts", "什麼是WAL？還有MVCC是什麼？"),
    ("code", "Who calls Lock.acquire()?"),
)
REPEATS = 200
ROUNDS = 5


def every_reading(text: str) -> QuestionReading:
    reading = read_question(text)
    _ = (reading.parts, reading.code, reading.names_subject, reading.asks_to_rate)
    return reading


def microseconds(read: Callable[[str], QuestionReading], text: str) -> float:
    read(text)  # the segmenter's dictionary loaded, its caches warm
    rounds = []
    for _ in range(ROUNDS):
        started = time.process_time()
        for _ in range(REPEATS):
            read(text)
        rounds.append((time.process_time() - started) / REPEATS * 1e6)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = [
        (
            kind,
            text,
            f"{microseconds(read_question, text):.0f}",
            f"{microseconds(every_reading, text):.0f}",
        )
        for kind, text in QUESTIONS
    ]
    header = ("question", "text", "read (µs CPU)", "with every reading (µs CPU)")
    table = markdown_table(header, "llrr", rows)
    text = "# Reading a question once (2026-12-05)\n\n" + table
    write_results(text, "question-reading-2026-12-05.md", args.out)


if __name__ == "__main__":
    main()
