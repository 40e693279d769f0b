"""The passage model's refusal threshold read off a never-seen run (issue 32, step 5).

``unseen.py`` records, for every learned answer, ``passage_p``: the passage model's
answerable probability over the answer's retrieved hits (each hit's chunk a passage, in
the search's order: the units the answerer read are those chunks grown by their
neighbours, so this is close to, not exactly, what it saw). This script sweeps the
threshold over one or more saved runs (their ``.json``) and prints, for each, the
covered and uncovered items refused when a question is also refused below it, next to
the run as it was.

    python benchmarks/unseen_calibrate.py benchmarks/results/unseen-all-DEV-2026-12-05.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

THRESHOLDS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def passage_probability(library: Any, question: str, hits: Sequence[Any]) -> float:
    """The passage model's answerable probability over ``hits`` (-1: no hybrid hit)."""
    from askalong.answer.scorer.passage_model import shipped_passage_scorer
    from askalong.answer.scorer.passages import Passage, passage_features
    from askalong.text.sentences import split_sentences

    passages = []
    for h in (h for h in hits if h.mode == "hybrid"):
        chunk = library.store.chunk(h.chunk_id)
        sentences = tuple(chunk.text[a:b] for a, b in split_sentences(chunk.text))
        heading = " ".join(chunk.section_path)
        ranks = (h.keyword_rank, h.keyword_score, h.vector_rank, h.vector_score)
        passages.append(Passage(chunk.text, sentences, heading, h.score, *ranks))
    if not passages:
        return -1.0
    scorer = shipped_passage_scorer()
    rows = passage_features(question, passages[:8])
    return scorer.answerable_probability(rows, scorer.scores(rows))


def sweep(rows: Sequence[dict[str, Any]]) -> str:
    """One table line per threshold: covered and uncovered refused."""
    learned = [r for r in rows if r["system"] == "learned" and "passage_p" in r]
    lines = [
        "| threshold | covered refused | uncovered refused | answer hit |",
        "|---:|---:|---:|---:|",
    ]
    for t in THRESHOLDS:
        refused = [r["refused"] or 0 <= r["passage_p"] < t for r in learned]
        cov = [x for r, x in zip(learned, refused, strict=True) if r["covered"]]
        unc = [x for r, x in zip(learned, refused, strict=True) if not r["covered"]]
        hits = sum(r["answer_hit"] and not x for r, x in zip(learned, refused, strict=True))
        lines.append(
            f"| {t:.2f} | {sum(cov)}/{len(cov)} | {sum(unc)}/{len(unc)} | {hits}/{len(cov)} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+", help="the .json of unseen.py runs")
    args = parser.parse_args()
    rows = [r for run in args.runs for r in json.loads(run.read_text("utf-8"))["answers"]]
    print(sweep(rows))


if __name__ == "__main__":
    main()
