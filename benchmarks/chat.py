"""The chat agent offline (issue 15, figures): two-part questions over a knowledge base of
the PostgreSQL manual and the papers, each part judged on its own.

``benchmarks/chat/questions.jsonl``: 44 two-part questions written for this benchmark, with
a gold phrase list per part taken from the documents before any answer was looked at (and
checked to occur in the documents). A part counts when the agent split it off, answered
it, cited at least one source (a stats part: answered from ``knowledge_stats``) and one of
its gold phrases is in that part's answer; a question counts when both parts do. Timed end
to end per question (``ChatAgent.ask``: splitting, the searches, the extractive answers,
their checks, the stored turn), after two warm-up questions outside the set. The knowledge
base is those documents named as one scope (as ``chat --collection`` names a collection's),
so the manual's pages are ranked page by page (``retrieve/pages.py``).

The library: ``--home`` is either an ingested library (holding ``askalong.sqlite3``: the
real-question set's cached library, copied) or a folder under which the manual and the
papers are ingested once (``answers_corpus.open_corpus``, vectors for the papers only).

    python benchmarks/chat.py --home /tmp/aa-NAME/6c8046f1640125c2 [--label X] [--out FILE]
        [--questions tests/data/chat_dev.jsonl] [--times FILE.json] [--fast-queries]

``--times`` writes each question's outcome as JSON (``chat_latency.py`` compares code
trees with it); ``--fast-queries`` embeds queries with the fast port as passages are: the
local embedder otherwise picks the query engine by a timing at start-up, which flips under
load and with it a few answers of the papers (vectors differ in the third decimal).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
QUESTIONS = ROOT / "chat" / "questions.jsonl"
# Our own two-part questions, tuned on (the measurement set above is only measured).
DEV = ROOT.parent / "tests" / "data" / "chat_dev.jsonl"
PATHS = (
    "manuals/postgresql-15-html",
    "pdf/en_2col/ALCE.pdf",
    "pdf/en_2col/2020.acl-main.207.pdf",
    "pdf/en_2col/N18-3011.pdf",
    "pdf/en_2col/naacl06-shinyama.pdf",
    "pdf/en_2col/tracemonkey-pldi-09.pdf",
    "pdf/en_1col/Wang-paperAVE2008.pdf",
)
WARM_UP = ("What is a view? And also what is a role?", "What does SPECTER embed?")


@dataclass(frozen=True)
class Outcome:
    id: str
    parts_found: int
    parts_ok: tuple[bool, ...]
    ms: float
    precision: float | None
    recall: float | None
    search_ms: float = 0.0
    answer_ms: float = 0.0
    cpu_ms: float = 0.0  # the process's CPU time over the question, every thread

    @property
    def ok(self) -> bool:
        return self.parts_found == 2 and all(self.parts_ok)


def load_items(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def part_ok(part: Any, gold: list[str], stats: bool) -> bool:
    """Answered, cited (or a stats answer) and holding one of its gold phrases."""
    text = " ".join(part.answer.lower().split())
    cited = bool(part.sources) or stats
    return part.status == "answered" and cited and any(g in text for g in gold)


def judged(item: dict[str, Any], answer: Any, ms: float) -> Outcome:
    stats = any(s.name == "knowledge_stats" for s in answer.steps)
    parts = answer.parts
    oks = tuple(
        part_ok(part, gold, stats and not part.sources)
        for part, gold in zip(parts, item["gold"], strict=False)
    )
    scores = answer.scores
    timings = answer.timings
    return Outcome(
        item["id"], len(parts), oks, ms, scores.precision, scores.recall,
        timings.search_ms, timings.answer_ms,
    )  # fmt: skip


def open_library(home: Path) -> tuple[Any, list[str]]:
    """The library and the ids of the knowledge base's documents (``PATHS``')."""
    from askalong.config import load_settings
    from askalong.library import Library

    if (home / "askalong.sqlite3").exists():
        os.environ["ASKALONG_HOME"] = str(home)
        known = json.loads((home / "corpus.json").read_text(encoding="utf-8"))
        return Library(load_settings(home=home)), [i for p in PATHS for i in known[p]["ids"]]
    sys.path.insert(0, str(ROOT))
    from answers_corpus import open_corpus

    library, ids = open_corpus(home, PATHS, vectors="files")
    return library, [i for p in PATHS for i in ids[p]]


def pin_fast_queries() -> None:
    """Queries on the fast port (module docstring): the start-up timing always prefers it."""
    from askalong.providers.local import embedder
    from askalong.providers.local.e5.model import FastE5Embedder

    embedder.query_seconds = lambda e, repeats=5: 0.0 if isinstance(e, FastE5Embedder) else 1.0


def run(home: Path, items: list[dict[str, Any]]) -> list[Outcome]:
    from askalong.agent.chat_agent import ChatRequest
    from askalong.agent.wiring import make_chat_agent
    from askalong.types import Access

    library, ids = open_library(home)
    try:
        access = Access.local()
        documents = tuple(library.store.get_document(i, access) for i in ids)
        agent = make_chat_agent(library)
        for question in WARM_UP:
            agent.ask(ChatRequest(question, access, documents))
        outcomes = []
        for item in items:
            started, cpu = time.perf_counter(), time.process_time()
            answer = agent.ask(ChatRequest(item["question"], access, documents))
            outcome = judged(item, answer, (time.perf_counter() - started) * 1000)
            cpu_ms = (time.process_time() - cpu) * 1000
            outcomes.append(replace(outcome, cpu_ms=cpu_ms))
        return outcomes
    finally:
        library.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(outcomes: list[Outcome], label: str) -> str:
    n = len(outcomes)
    both = sum(o.ok for o in outcomes)
    parts = sum(sum(o.parts_ok) for o in outcomes)
    split = sum(o.parts_found == 2 for o in outcomes)
    times = [o.ms for o in outcomes]
    cpu = [o.cpu_ms for o in outcomes]
    precisions = [o.precision for o in outcomes if o.precision is not None]
    recalls = [o.recall for o in outcomes if o.recall is not None]
    lines = [
        f"# chat offline: {label} ({datetime.date.today().isoformat()})",
        "",
        "| measure | value | goal |",
        "|---|---|---|",
        f"| questions | {n} | ≥ 40 |",
        f"| split into exactly two parts | {split} / {n} | |",
        f"| both parts answered with citations and gold | {both} / {n} = {both / n:.2f} | ≥ 0.85 |",
        f"| parts answered with citations and gold | {parts} / {2 * n} = {parts / (2 * n):.2f} | |",
        f"| citation precision (mean per answer) | {statistics.mean(precisions):.2f} | |",
        f"| citation recall (mean per answer) | {statistics.mean(recalls):.2f} | |",
        f"| end to end p50 | {statistics.median(times):.0f} ms | ≤ 500 ms |",
        f"| end to end p95 | {percentile(times, 0.95):.0f} ms | ≤ 500 ms |",
        f"| of which searching, p50 | {statistics.median(o.search_ms for o in outcomes):.0f} ms"
        " | |",
        f"| of which answering and checking, p50 | "
        f"{statistics.median(o.answer_ms for o in outcomes):.0f} ms | |",
        f"| CPU time per question, p50 / p95 | {statistics.median(cpu):.0f} / "
        f"{percentile(cpu, 0.95):.0f} ms | (the machine is shared: wall time waits for cores) |",
        "",
        "| id | parts | part 1 | part 2 | ms |",
        "|---|---|---|---|---|",
        # the per-item rows are this dev set's (our own questions), fine to read and tune on
    ]
    for o in outcomes:
        marks = [("yes" if ok else "no") for ok in o.parts_ok] + ["—"] * (2 - len(o.parts_ok))
        lines.append(f"| {o.id} | {o.parts_found} | {marks[0]} | {marks[1]} | {o.ms:.0f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--label", default="offline")
    parser.add_argument("--out", type=Path, default=None, help="write the table here too")
    parser.add_argument(
        "--questions", type=Path, default=QUESTIONS, help="another set (the dev set: DEV)"
    )
    parser.add_argument("--times", type=Path, default=None, help="each outcome as JSON here")
    parser.add_argument("--fast-queries", action="store_true", help="queries on the fast port")
    args = parser.parse_args(argv)
    if args.fast_queries:
        pin_fast_queries()
    outcomes = run(args.home, load_items(args.questions))
    text = report(outcomes, args.label)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    if args.times is not None:
        rows = [{**asdict(o), "ok": o.ok} for o in outcomes]
        args.times.write_text(json.dumps(rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
