"""The offline extractive answerer at paragraph level: does it quote the answer, and does
it decline what its evidence cannot answer?

Each question gets its own paragraph and a neighbour as evidence (one block and one unit
per paragraph); *evidence hit* = answered and a quote holds a gold answer. The same
question over two paragraphs of an article half the dataset away must come back
``not_covered`` (*unanswerable -> not covered*). Two modes:

- ``retrieved``: every unit is a retrieved unit (knowledge-base mode);
- ``anchored``: the first unit is the anchor unit with its first sentence selected, as in
  read-along; for the unanswerable case the anchor sits in the other article, so an
  anchor bonus alone must not make an answer.

Sets: XQuAD en / zh (1190 questions each), CMRC 2018 dev (3219), with and without the
default embedder. Prints a markdown table and saves ``benchmarks/results/extractive-<date>.md``.

    .venv/bin/python benchmarks/extractive.py [--limit 300] [--no-embedder] [--sets xquad.en]
"""

from __future__ import annotations

import argparse
import datetime
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from askalong.answer.extractive.select import answer_extractively
from askalong.config import load_settings
from askalong.context.units import ContextUnit, Origin, places_of
from askalong.providers.base import Embedder
from askalong.question.reading import read_question
from askalong.text.sentences import split_sentences
from askalong.types import Block, BlockSpan
from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
SETS = {
    "xquad.en": EVALDATA / "qa" / "xquad" / "xquad.en.json",
    "xquad.zh": EVALDATA / "qa" / "xquad" / "xquad.zh.json",
    "cmrc.dev": EVALDATA / "qa" / "cmrc2018" / "cmrc2018_dev.json",
}
MODES = ("retrieved", "anchored")


@dataclass(frozen=True)
class Case:
    question: str
    golds: tuple[str, ...]
    context: tuple[str, ...]  # the question's paragraph and a neighbour
    far: tuple[str, ...]  # two paragraphs of another article


@dataclass(frozen=True)
class Row:
    dataset: str
    mode: str
    embedder: str
    questions: int
    answered: float
    evidence_hit: float
    not_covered: float
    ms_per_answer: float


def cases(path: Path, limit: int | None) -> list[Case]:
    """Every question (or an even spread of ``limit`` of them) with its paragraphs."""
    articles = [
        [p for p in article["paragraphs"]]
        for article in json.loads(path.read_text(encoding="utf-8"))["data"]
    ]
    flat = [p["context"] for article in articles for p in article]
    found: list[Case] = []
    position = 0
    for a, paragraphs in enumerate(articles):
        other = [p["context"] for p in articles[(a + len(articles) // 2) % len(articles)]]
        for k, paragraph in enumerate(paragraphs):
            near = _neighbour(paragraphs, k, flat, position)
            far = (other[k % len(other)], other[(k + 1) % len(other)])
            for qa in paragraph["qas"]:
                golds = tuple(answer["text"] for answer in qa["answers"])
                found.append(Case(qa["question"], golds, (paragraph["context"], near), far))
            position += 1
    if limit is None or limit >= len(found):
        return found
    step = len(found) / limit
    return [found[int(k * step)] for k in range(limit)]


def _neighbour(paragraphs: Sequence[dict[str, object]], k: int, flat: list[str], at: int) -> str:
    """The next paragraph of the article, else the previous, else the next in the file."""
    if k + 1 < len(paragraphs):
        return str(paragraphs[k + 1]["context"])
    if k > 0:
        return str(paragraphs[k - 1]["context"])
    return flat[(at + 1) % len(flat)]


def units_of(paragraphs: Sequence[str], mode: str) -> list[ContextUnit]:
    """One block and one unit per paragraph; anchored: the first unit is the anchor with
    its first sentence as the selection."""
    units = []
    for k, text in enumerate(paragraphs):
        block = Block(f"b{k}", "paragraph", text, k, ("Body",), page=1)
        span = BlockSpan(block.id, 0, len(text))
        origin: Origin = "anchor" if mode == "anchored" and k == 0 else "retrieved"
        cited = span
        if origin == "anchor":
            first = split_sentences(text)[:1] or [(0, len(text))]
            cited = BlockSpan(block.id, first[0][0], first[0][1])
        unit = ContextUnit("doc", (), text, (span,), (cited,), ("Body",), 1, 1, origin, None)
        units.append(replace(unit, places=places_of([block])))
    return units


def evaluate(name: str, found: Sequence[Case], mode: str, embedder: Embedder | None) -> Row:
    answered = hits = declined = 0
    started = time.perf_counter()
    for case in found:
        question = read_question(case.question)
        result = answer_extractively(question, units_of(case.context, mode), embedder=embedder)
        answered += result.status == "answered"
        hits += result.status == "answered" and any(
            gold in quote.text for quote in result.quotes for gold in case.golds
        )
        far = answer_extractively(question, units_of(case.far, mode), embedder=embedder)
        declined += far.status == "not_covered"
    seconds = time.perf_counter() - started
    n = max(len(found), 1)
    return Row(
        dataset=name,
        mode=mode,
        embedder=embedder.name if embedder is not None else "none",
        questions=len(found),
        answered=answered / n,
        evidence_hit=hits / n,
        not_covered=declined / n,
        ms_per_answer=seconds * 1000 / (2 * n),
    )


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| dataset | mode | embedder | questions | answered | evidence hit "
        "| unanswerable → not covered | ms / answer |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.dataset} | {r.mode} | {r.embedder} | {r.questions} | {r.answered:.3f} | "
            f"{r.evidence_hit:.3f} | {r.not_covered:.3f} | {r.ms_per_answer:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="questions per set (spread)")
    parser.add_argument("--embedder-limit", type=int, default=None, help="... with the embedder")
    parser.add_argument("--no-embedder", action="store_true")
    parser.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    parser.add_argument("--modes", nargs="*", default=list(MODES), choices=list(MODES))
    parser.add_argument("--out", default=None, help="results file (default: dated)")
    args = parser.parse_args()
    embedder = None
    if not args.no_embedder:
        from askalong.providers.local.embedder import default_embedder

        embedder = default_embedder(load_settings())
    rows = []
    for name in args.sets:
        for mode in args.modes:
            rows.append(evaluate(name, cases(SETS[name], args.limit), mode, None))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
            if embedder is not None:
                limit = args.embedder_limit or args.limit
                rows.append(evaluate(name, cases(SETS[name], limit), mode, embedder))
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = table(rows)
    print(text)
    date = datetime.date.today().isoformat()
    out = Path(args.out) if args.out else REPO / "benchmarks" / "results" / f"extractive-{date}.md"
    header = "# Offline extractive answerer, paragraph level\n\n"
    out.write_text(header + text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
