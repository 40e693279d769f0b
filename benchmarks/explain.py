"""Explain / Example / Compare on real selections: does the answer echo the selection, and
does it hold the expected definition, caption, bibliography entry or set-up sentence?

The selections are the test data ``tests/integration/data/explain_selections.json`` (17
on four papers, English and Chinese). Each is answered three times over the same
evidence, in the same run: by the previous answerer (the sentence scoring of ``select.py``
with the intent's cues), by ``intents.answer_intent`` (the rules scorer's path) and by it
with the learned scorer's sentences (``intent_learned``, the bundled embedder: the path
under the learned scorer). The evidence is what read-along gathering
builds without search: the anchor unit, then the material units of
``context.explain_units`` (the previous answerer sees them too, so only the composing
differs). *echo*: the direct answer holds the selection, or its first quote lies inside
it; *hit*: an expected phrase is in the direct answer. Prints a markdown table and saves
``benchmarks/results/explain-<date>.md``.

    .venv/bin/python benchmarks/explain.py
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import time
from functools import cache
from pathlib import Path
from typing import Any

from askalong.answer.extractive.intent_learned import learned_ranker
from askalong.answer.extractive.intents import answer_intent
from askalong.answer.extractive.select import ExtractiveResult, answer_extractively
from askalong.asking.question import intent_question
from askalong.config import load_settings
from askalong.context.anchor import locate_anchor, located_context
from askalong.context.assemble import assemble_context
from askalong.context.explain_units import explain_units
from askalong.context.outline import Outline
from askalong.context.units import ContextUnit
from askalong.parse.pdf.parser import parse
from askalong.providers.local.embedder import default_embedder
from askalong.question.reading import read_question
from askalong.text.fold import fold
from askalong.types import Anchor, Block
from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "tests" / "integration" / "data" / "explain_selections.json"


@cache
def _blocks(name: str) -> tuple[Block, ...]:
    path = EVALDATA / "pdf" / name
    return parse(path.read_bytes(), source=path.name, ocr=False).blocks


def _evidence(case: dict[str, Any]) -> tuple[str, list[ContextUnit], float]:
    """The question, the units, and the seconds the material took to gather."""
    blocks = _blocks(case["document"])
    located = locate_anchor(blocks, Anchor("doc", selected_text=case["selection"]))
    outline = Outline(blocks)
    question = case.get("question") or intent_question(case["intent"], case["selection"])
    started = time.perf_counter()
    found = explain_units(
        blocks, located, case["intent"], question, outline=outline, document_id="doc"
    )
    seconds = time.perf_counter() - started
    anchor = located_context(blocks, located)
    units = assemble_context(read_question(question).terms, anchor, found, [], root=outline.root)
    return question, units, seconds


def _echoes(result: ExtractiveResult, selection: str) -> bool:
    selected = fold(selection)
    first = result.quotes[:1]
    return selected in fold(result.answer) or any(fold(q.text) in selected for q in first)


def _hit(result: ExtractiveResult, expect: list[str]) -> bool:
    return any(fold(phrase) in fold(result.answer) for phrase in expect)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="results file (default: dated)")
    args = parser.parse_args()
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    counts = {"previous": [0, 0], "from the document": [0, 0], "learned": [0, 0]}
    gathered = []
    embedder = default_embedder(load_settings())
    for case in cases:
        question, units, seconds = _evidence(case)
        gathered.append(seconds * 1000)
        asked = read_question(question)
        now = answer_intent(asked, units, case["intent"])
        ranked = learned_ranker(question, embedder)
        learned = answer_intent(asked, units, case["intent"], ranked)
        assert now is not None and learned is not None
        before = answer_extractively(asked, units, intent=case["intent"])
        answers = (("previous", before), ("from the document", now), ("learned", learned))
        for name, result in answers:
            counts[name][0] += _echoes(result, case["selection"])
            counts[name][1] += _hit(result, case["expect"])
    n = len(cases)
    lines = [
        "| answerer | selections | echo | expected phrase in the direct answer |",
        "|---|---|---|---|",
        *(f"| {name} | {n} | {e} / {n} | {h} / {n} |" for name, (e, h) in counts.items()),
        "",
        f"gathering the material: median {statistics.median(gathered):.1f} ms, "
        f"max {max(gathered):.1f} ms per selection",
    ]
    text = "\n".join(lines)
    print(text)
    date = datetime.date.today().isoformat()
    out = Path(args.out) if args.out else REPO / "benchmarks" / "results" / f"explain-{date}.md"
    out.write_text(f"# Explain on selections ({date})\n\n{text}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
