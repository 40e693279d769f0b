"""Training groups for the coverage model (``coverage_model.py``, an experiment): does the
evidence answer the question at all, when it is the right document?

    PYTHONPATH=src python training/coverage_pairs.py --out /work/data/refuse/coverage.npz

Each question of ``prepare.py``'s sources (TEST articles never read) gives three groups of
candidate sentences, in ``prepare.py``'s order (its paragraph and the two of its article
sharing the most terms with it):

- ``intact``: those paragraphs as they are (covered);
- ``deleted``: the same paragraphs without the sentence(s) holding the answer (not
  covered: the rest of the article stays as near-miss evidence, the case readers meet:
  the document talks about the topic, not about the fact asked);
- ``far``: the question over the best-matching paragraphs of other articles of the same
  set (not covered; the easy case the first answerable head was trained on).

Each group keeps the sentences the answerers would score (``sentence_rows.kept_indices``:
at most 24, those holding the most of the question's terms), and stores their
``features.sentence_features`` rows: the model reads a summary of them and of the
sentence head's scores (``coverage_model.coverage_features``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from askalong.answer.extractive.sentence_rows import kept_indices
from askalong.answer.scorer.features import sentence_features

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prepare import (
    SEED,
    SOURCES,
    Paragraph,
    Question,
    Vectors,
    candidates_of,
    far_of,
    group,
    load,
    paragraph_indexes,
)

CASES = ("intact", "deleted", "far")


def deleted(question: Question, paragraphs: list[Paragraph]) -> list[Paragraph]:
    """``paragraphs`` with the question's own paragraph's answering sentences removed
    (a copy: the originals stay for the other questions)."""
    own = paragraphs[question.paragraph]
    kept = [s for i, s in enumerate(own.sentences) if i not in question.gold]
    out = list(paragraphs)
    out[question.paragraph] = Paragraph(own.dataset, own.article, kept, own.title)
    return out


def plans(
    questions: list[Question], paragraphs: list[Paragraph], splits: list[str]
) -> list[tuple[Question, str, list[int], list[Paragraph]]]:
    """(question, case, chosen paragraphs, the paragraphs they index) of every group."""
    rng = random.Random(SEED)
    by_article, pools = paragraph_indexes(paragraphs, splits)
    out = []
    for q in questions:
        near = candidates_of(q, by_article, paragraphs)
        own = paragraphs[q.paragraph]
        far = far_of(q, pools[(own.dataset, splits[q.paragraph])], paragraphs, rng)
        without = deleted(q, paragraphs)
        out.append((q, "intact", near, paragraphs))
        if without[q.paragraph].sentences or len(near) > 1:
            out.append((q, "deleted", near, without))
        if far:
            out.append((q, "far", far, paragraphs))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/data/refuse/coverage.npz"))
    parser.add_argument("--limit", type=int, default=1200, help="questions per source")
    default = ["cmrc", "drcd", "scifact", "hotpot"]
    parser.add_argument("--sources", nargs="+", choices=list(SOURCES), default=default)
    args = parser.parse_args()
    started = time.time()
    paragraphs, questions, splits = load(args.limit, args.sources)
    planned = []
    for q, case, chosen, source in plans(questions, paragraphs, splits):
        sentences, _ = group(q.text, chosen, source)
        planned.append((q, case, [sentences[k] for k in kept_indices(q.text, sentences)]))
    print(f"{len(questions)} questions, {len(planned)} groups planned", flush=True)
    vectors = Vectors()
    vectors.fill([s.text for _, _, sentences in planned for s in sentences])
    print(f"embedded {len(vectors.passages)} sentences in {time.time() - started:.0f} s")
    asked = sorted({q.text for q in questions})
    by_question = dict(zip(asked, vectors.queries(asked), strict=True))
    rows, groups, meta = [], [], []
    for q, case, sentences in planned:
        if not sentences:
            continue
        vecs = np.stack([vectors.passages[s.text] for s in sentences])
        rows.append(sentence_features(q.text, sentences, by_question[q.text], vecs))
        groups.extend([len(meta)] * len(sentences))
        meta.append((q.language, splits[q.paragraph], case))
    np.savez_compressed(
        args.out,
        x=np.vstack(rows),
        group=np.array(groups, dtype=np.int32),
        language=np.array([m[0] for m in meta]),
        split=np.array([m[1] for m in meta]),
        case=np.array([m[2] for m in meta]),
    )
    print(f"{len(meta)} groups in {time.time() - started:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
