"""The refusal rule on the dev sets: what the answerer refuses, and the ROC of the
weighted rule's two thresholds.

Asks every item of the dev sets (``--dev``; by default ``tests/data/refusal_dev2.jsonl``,
written for issue 12 after the first was found too easy, then ``refusal_dev.jsonl``; never
the held-out ``benchmarks/answers/questions.jsonl``) through the product's evidence
gathering and the extractive answerer, with the bundled embedder. First, per language:
uncovered refused / covered refused by the whole decision (names the evidence never
uses, how-many questions with no number about their focus, the weighted share).
Then the two signals the weighted rule in ``answerable.py`` reads:
the rarity-weighted share of the focus missing from the evidence, and the best
question-sentence cosine (over every candidate sentence). Then, per question language,
for each missing-share threshold and cosine ceiling: uncovered refused / covered refused
(a question is refused when its share reaches the threshold and its best cosine stays
below the ceiling). Cross-lingual items are left out: their focus is not checked by term.

    PYTHONPATH=src .venv/bin/python benchmarks/refusals.py [--home /tmp/aa-refusals]
        [--dev tests/data/refusal_dev2.jsonl ...]
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
DEVS = (
    REPO / "tests" / "data" / "refusal_dev2.jsonl",
    REPO / "tests" / "data" / "refusal_dev.jsonl",
)
SHARES = (0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
CEILINGS = (0.86, 0.87, 0.88, 0.9, 1.0)


@dataclass(frozen=True)
class Signal:
    id: str
    covered: bool
    language: str
    missing_share: float
    cosine: float
    refused: bool = False  # by the answerer's whole decision


def signals(library: Any, ids: dict[str, list[str]], items: Sequence[Any]) -> list[Signal]:
    """Each same-language item's two signals, as the answerer sees its evidence."""
    from askalong.answer.extractive.answerable import focus_support
    from askalong.answer.extractive.scoring import Weights, score_candidates
    from askalong.answer.extractive.select import answer_extractively
    from askalong.answer.extractive.sentence_cache import CachedEmbedder
    from askalong.asking.evidence import gather
    from askalong.asking.question import AskedQuestion
    from askalong.question.reading import read_question
    from askalong.types import Access

    embedder = CachedEmbedder(library.indexes.embedder)
    access = Access.local()
    out = []
    for item in items:
        if item.kind == "cross_lingual":
            continue
        docs = tuple(library.store.get_document(d, access) for r in item.documents for d in ids[r])
        question = read_question(item.question)
        evidence = gather(
            library.store,
            library.searcher,
            AskedQuestion(item.question, question, "ask", None, docs),
            access,
        )
        every = Weights(embed_top=0)  # the best cosine over every sentence, not the top 6
        scored = score_candidates(question, evidence.units, embedder=embedder, weights=every)
        support = focus_support(question, scored, embedded=True)
        texts = [s.candidate.text for s in scored]
        cosine = 0.0
        if texts:
            query = embedder.embed_query(question.text)
            cosine = float(np.max(embedder.embed_passages(texts) @ query))
        covered = item.kind != "uncovered"
        language = "zh" if question.pairs else "en"
        result = answer_extractively(question, evidence.units, embedder=embedder)
        refused = result.status == "not_covered"
        out.append(Signal(item.id, covered, language, support.missing_share, cosine, refused))
        print(
            f"{item.id:<24} share {support.missing_share:.2f} cosine {cosine:.3f} "
            f"{'refused' if refused else 'answered'}",
            flush=True,
        )
    return out


def decided(found: Sequence[Signal]) -> str:
    """Uncovered refused / covered refused by the answerer, per language."""
    lines = ["| language | uncovered refused | covered refused |", "|---|---:|---:|"]
    for language in ("en", "zh"):
        mine = [s for s in found if s.language == language]
        uncovered = [s for s in mine if not s.covered]
        covered = [s for s in mine if s.covered]
        lines.append(
            f"| {language} | {sum(s.refused for s in uncovered)}/{len(uncovered)} | "
            f"{sum(s.refused for s in covered)}/{len(covered)} |"
        )
    return "\n".join(lines)


def roc(found: Sequence[Signal], language: str) -> str:
    """Refused uncovered / refused covered for each threshold pair, in one language."""
    mine = [s for s in found if s.language == language]
    uncovered = [s for s in mine if not s.covered]
    covered = [s for s in mine if s.covered]
    head = "| missing share ≥ | " + " | ".join(f"cosine < {c:.2f}" for c in CEILINGS) + " |"
    lines = [
        f"{language}: {len(uncovered)} uncovered, {len(covered)} covered "
        "(cell: uncovered refused / covered refused)",
        "",
        head,
        "|---:|" + "---:|" * len(CEILINGS),
    ]
    for share in SHARES:
        cells = []
        for ceiling in CEILINGS:

            def refused(group: Sequence[Signal], c: float = ceiling, t: float = share) -> int:
                return sum(s.missing_share >= t and s.cosine < c for s in group)

            cells.append(
                f"{refused(uncovered)}/{len(uncovered)} · {refused(covered)}/{len(covered)}"
            )
        lines.append(f"| {share:.2f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    import answers

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path("/tmp/aa-refusals"))
    parser.add_argument("--dev", type=Path, nargs="*", default=list(DEVS))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    sets = {dev: answers.load_items(dev) for dev in args.dev}
    paths = [rel for items in sets.values() for item in items for rel in item.documents]
    library, ids = answers.open_corpus(args.home, paths, vectors="files")
    date = datetime.date.today().isoformat()
    parts = [f"# The refusal rule on the dev sets ({date})"]
    with library:
        for dev, items in sets.items():
            found = signals(library, ids, items)
            parts += [f"## `{dev.name}`", decided(found)]
            parts += [roc(found, language) for language in ("en", "zh")]
    text = "\n\n".join(parts)
    print(text)
    out = args.out or REPO / "benchmarks" / "results" / f"refusals-{date}.md"
    out.write_text(text + "\n", encoding="utf-8")
    print(f"saved {out}")


if __name__ == "__main__":
    main()
