"""``ask`` latency on an indexed ~20-page paper, offline: the issue's goal is p50 <= 200 ms.

Indexes a paper (default: ALCE.pdf, 23 pages) into a temporary ``ASKALONG_HOME`` with
the default embedder (retrieval vectors on), then asks questions made from its own
sentences in three modes: knowledge base (no anchor), read along (the question asked at
the block it came from) and read along with a bare *Explain* intent. Each mode runs
with the embedder in the answerer and verifier ("on") and without ("off"); retrieval is
hybrid in both. Prints p50 / p95 per mode (wall, ``Answer.timings``, and the process's CPU
time, worker threads included) and the share of the time spent in retrieval, answer and
verify, and saves ``benchmarks/results/ask-latency-<date>.md``. ``--baseline TREE``
measures TREE's ``src`` first, then this tree's, each in a process of its own, in the
same run (a tree's figures move with the machine's load: compare rows of one run).

    .venv/bin/python benchmarks/ask_latency.py [--pdf PATH] [--questions 30] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
PAPER = EVALDATA / "pdf" / "en_2col" / "ALCE.pdf"
MODES = ("knowledge base", "read along", "read along, Explain")


@dataclass(frozen=True)
class Probe:
    question: str
    block_id: str


@dataclass(frozen=True)
class Row:
    mode: str
    embedder: str
    asked: int
    answered: float
    p50_ms: float
    p95_ms: float
    p50_cpu_ms: float
    retrieval: float  # shares of the total time
    answer: float
    verify: float


def probes(blocks: Sequence[object], count: int) -> list[Probe]:
    """Questions from the paper's own sentences, spread over its body paragraphs: a
    sentence's middle words, asked as "What about ...?"."""
    from askalong.text.sentences import split_sentences
    from askalong.types import Block

    body = [b for b in blocks if isinstance(b, Block) and b.kind == "paragraph"]
    body = [b for b in body if len(b.text) > 200]
    step = max(len(body) / count, 1.0)
    out = []
    for k in range(min(count, len(body))):
        block = body[int(k * step)]
        start, end = max(split_sentences(block.text), key=lambda s: s[1] - s[0])
        words = block.text[start:end].split()
        middle = " ".join(words[len(words) // 4 : len(words) // 4 + 8]).strip(".,;:")
        out.append(Probe(f"What about {middle}?", block.id))
    return out


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(library: object, doc: str, found: Sequence[Probe], mode: str, on: bool) -> Row:
    from askalong.answer.extractive.answerer import ExtractiveAnswerer
    from askalong.asking.asker import Asker, Question
    from askalong.asking.choose import make_asker
    from askalong.library import Library
    from askalong.types import Access, Anchor, Answer

    assert isinstance(library, Library)
    # "on" is the product's asker; "off" the same answerer without the embedder.
    asker = (
        make_asker(library) if on else Asker(library.store, library.searcher, ExtractiveAnswerer())
    )
    document = library.store.get_document(doc, Access.local())  # as an edge resolves it

    def ask(probe: Probe) -> Answer:
        if mode == "knowledge base":
            return asker.ask(Question(probe.question, documents=(document,)), Access.local())
        anchor = Anchor(doc, probe.block_id, 0, 120)
        if mode == "read along":
            return asker.ask(Question(probe.question, anchor=anchor), Access.local())
        return asker.ask(Question("", "explain", anchor), Access.local())

    warm = ask(found[0])  # warm up: tokeniser, model session
    assert "routes: keyword, vector" in warm.searched, warm.searched
    answers, cpu = [], []
    for probe in found:
        clock = time.process_time()
        answers.append(ask(probe))
        cpu.append(1000 * (time.process_time() - clock))
    totals = [a.timings.total_ms for a in answers]
    spent = sum(totals) or 1.0
    return Row(
        mode=mode,
        embedder="on" if on else "off",
        asked=len(answers),
        answered=sum(a.status == "answered" for a in answers) / len(answers),
        p50_ms=statistics.median(totals),
        p95_ms=percentile(totals, 0.95),
        p50_cpu_ms=statistics.median(cpu),
        retrieval=sum(a.timings.retrieval_ms for a in answers) / spent,
        answer=sum(a.timings.answer_ms for a in answers) / spent,
        verify=sum(a.timings.verify_ms for a in answers) / spent,
    )


def table(rows: Sequence[Row], trees: Sequence[str] = ()) -> str:
    """The rows as Markdown; ``trees`` names each row's tree (a ``--baseline`` run)."""
    tree = "| tree " if trees else ""
    lines = [
        f"{tree}| mode | embedder in answer + verify | asked | answered | p50 ms | p95 ms "
        "| p50 CPU ms | retrieval | answer | verify |",
        "|---" * (10 + bool(trees)) + "|",
    ]
    for k, r in enumerate(rows):
        lines.append(
            (f"| {trees[k]} " if trees else "")
            + f"| {r.mode} | {r.embedder} | {r.asked} | {r.answered:.2f} | {r.p50_ms:.0f} | "
            f"{r.p95_ms:.0f} | {r.p50_cpu_ms:.0f} | {r.retrieval:.0%} | {r.answer:.0%} | "
            f"{r.verify:.0%} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", type=Path, default=PAPER)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--out", default=None, help="results file (default: dated)")
    parser.add_argument("--baseline", type=Path, help="a tree measured first, in the same run")
    parser.add_argument("--rows-json", type=Path, help=argparse.SUPPRESS)  # a child's rows
    args = parser.parse_args()
    if args.baseline:
        rows, notes, trees = compared(args.baseline, args.pdf, args.questions)
    else:
        rows, notes = measured(args.pdf, args.questions)
        trees = []
    if args.rows_json:
        args.rows_json.write_text(json.dumps([[asdict(r) for r in rows], notes]), "utf-8")
        return
    text = table(rows, trees)
    print(text)
    date = datetime.date.today().isoformat()
    out = Path(args.out) if args.out else REPO / "benchmarks" / "results" / f"ask-latency-{date}.md"
    header = "# `ask` latency, offline extractive answerer\n\n"
    out.write_text(header + "\n".join(notes) + "\n\n" + text + "\n", encoding="utf-8")


def measured(pdf: Path, count: int) -> tuple[list[Row], list[str]]:
    """``measure`` in a home of its own with the default embedder and answerer."""
    with tempfile.TemporaryDirectory() as home:
        os.environ["ASKALONG_HOME"] = home
        os.environ.pop("ASKALONG_EMBEDDER", None)  # the default: local vectors
        os.environ.pop("ASKALONG_ANSWERER", None)  # the default: the offline extractive one
        return measure(pdf, count)


def compared(baseline: Path, pdf: Path, count: int) -> tuple[list[Row], list[str], list[str]]:
    """The rows of ``baseline``'s source, then this tree's, each measured in a child."""
    rows: list[Row] = []
    notes: list[str] = []
    trees: list[str] = []
    for name, tree in ((f"baseline `{baseline.name}`", baseline), ("this tree", REPO)):
        with tempfile.TemporaryDirectory() as scratch:
            found = Path(scratch) / "rows.json"
            command = [sys.executable, __file__, "--pdf", str(pdf), "--questions", str(count)]
            env = {**os.environ, "PYTHONPATH": str(tree.resolve() / "src")}
            subprocess.run([*command, "--rows-json", str(found)], env=env, check=True)
            got, said = json.loads(found.read_text("utf-8"))
        rows += [Row(**r) for r in got]
        notes += [f"{name}: {line}" for line in said]
        trees += [name] * len(got)
    return rows, notes, trees


def measure(pdf: Path, count: int) -> tuple[list[Row], list[str]]:
    from askalong.config import load_settings
    from askalong.library import Library
    from askalong.types import Access

    settings = load_settings()
    with Library(settings) as library:
        started = time.perf_counter()
        added = library.ingestor.add(str(pdf), Access.local())
        assert added.document is not None, added.error
        doc = added.document
        report = library.indexes.embed(library.indexes.pending_vectors())
        assert report.error is None and report.chunks == added.chunks, report
        indexed = time.perf_counter() - started
        found = probes(library.store.blocks(doc.id), count)
        embedder = library.indexes.embedder
        notes = [
            f"Paper: `{pdf.name}`, {doc.page_count} pages, {added.chunks} chunks, indexed "
            f"in {indexed:.0f} s with embedder `{embedder.name if embedder else 'none'}`.",
            f"{len(found)} questions from its sentences; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start.",
        ]
        rows = []
        for mode in MODES:
            for on in (False, True):
                rows.append(run(library, doc.id, found, mode, on))
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    return rows, notes


if __name__ == "__main__":
    main()
