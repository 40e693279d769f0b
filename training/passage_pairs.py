"""Training groups for the passage model: each question over a small library of
paragraphs, searched as the product searches (BM25 and e5 routes, z-score fusion), the
top ``CANDIDATES`` passages with ``askalong.answer.scorer.passages`` rows.

    PYTHONPATH=src python training/passage_pairs.py --out /work/data/scorer/passages.npz

A question's covered library is every paragraph of its own article and ``FAR`` random
paragraphs of other articles of the same set and split; its gold passage is the
paragraph holding the answer (a group whose gold paragraph the search does not bring
into the top ``CANDIDATES`` is dropped). Its uncovered library is the same without the
paragraph holding the answer (for the answerable head: a plausible question over the
right document that the document does not answer, the case readers meet). Sources, splits (by
article, TEST never read) and the question set are ``prepare.py``'s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from askalong.answer.scorer.bm25 import bm25_scores
from askalong.answer.scorer.passages import Passage, passage_features
from askalong.retrieve.fusion import zscore_fusion
from askalong.types import Hit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prepare import (
    SEED,
    SOURCES,
    Paragraph,
    Question,
    Vectors,
    load,
    paragraph_indexes,
    save_groups,
)

FAR = 12  # paragraphs of other articles in a library
CANDIDATES = 8  # passages the model chooses among (about the context's units)
ROUTE_LIMIT = 20  # hits each route returns


def searched(keyword: Sequence[float], cosine: Sequence[float]) -> list[Hit]:
    """Each route's top ``ROUTE_LIMIT`` fused as the product fuses them (ids: indices)."""
    kw = sorted((k for k, s in enumerate(keyword) if s > 0), key=lambda k: -keyword[k])
    vec = sorted(range(len(cosine)), key=lambda k: -cosine[k])
    keyword_hits = [
        Hit(str(k), "d", keyword[k], "keyword", keyword_score=keyword[k], keyword_rank=r)
        for r, k in enumerate(kw[:ROUTE_LIMIT], start=1)
    ]
    vector_hits = [
        Hit(str(k), "d", cosine[k], "vector", vector_score=cosine[k], vector_rank=r)
        for r, k in enumerate(vec[:ROUTE_LIMIT], start=1)
    ]
    return zscore_fusion(keyword_hits, vector_hits)[:CANDIDATES]


def passages_of(
    question: str, qv: np.ndarray, library: list[int], paragraphs: list[Paragraph], vectors: Vectors
) -> tuple[list[Passage], list[int]]:
    """The library searched: its top passages and their paragraph indices."""
    texts = [text_of(paragraphs[p]) for p in library]
    cosine = [float(vectors.passages[t] @ qv) for t in texts]
    hits = searched(bm25_scores(question, texts), cosine)
    chosen = [library[int(h.chunk_id)] for h in hits]
    found = [
        Passage(
            texts[int(h.chunk_id)],
            tuple(paragraphs[p].sentences),
            paragraphs[p].title,
            h.score,
            h.keyword_rank,
            h.keyword_score,
            h.vector_rank,
            h.vector_score,
        )
        for h, p in zip(hits, chosen, strict=True)
    ]
    return found, chosen


def text_of(paragraph: Paragraph) -> str:
    return " ".join(paragraph.sentences)


def libraries(
    questions: list[Question], paragraphs: list[Paragraph], splits: list[str]
) -> list[tuple[Question, list[int], list[int]]]:
    """(question, covered library, uncovered library) for each question."""
    rng = random.Random(SEED)
    by_article, pools = paragraph_indexes(paragraphs, splits)
    out = []
    for q in questions:
        own = paragraphs[q.paragraph]
        pool = pools[(own.dataset, splits[q.paragraph])]
        others = [
            p
            for p in rng.sample(pool, min(3 * FAR, len(pool)))
            if paragraphs[p].article != own.article
        ]
        article = by_article[(own.dataset, own.article)]
        without = [p for p in article if p != q.paragraph]
        out.append((q, article + others[:FAR], without + others[:FAR]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/data/scorer/passages.npz"))
    parser.add_argument("--limit", type=int, default=2500, help="questions per source")
    parser.add_argument("--vectors", type=Path, default=None, help="paragraph vectors kept here")
    parser.add_argument(
        "--sources", nargs="+", choices=list(SOURCES), default=["cmrc", "drcd", "scifact", "hotpot"]
    )
    args = parser.parse_args()
    started = time.time()
    paragraphs, questions, splits = load(args.limit, args.sources)
    plans = libraries(questions, paragraphs, splits)
    vectors = Vectors()
    if args.vectors and args.vectors.exists():
        vectors.load(args.vectors)
    vectors.fill(sorted({text_of(paragraphs[p]) for _, a, b in plans for p in a + b}))
    print(
        f"embedded {len(vectors.passages)} paragraphs in {time.time() - started:.0f} s", flush=True
    )
    if args.vectors:
        vectors.save(args.vectors)
    qvecs = vectors.queries([q.text for q, _, _ in plans])
    rows, labels, groups, meta = [], [], [], []
    for (q, near, far), qv in zip(plans, qvecs, strict=True):
        for covered, library in ((1, near), (0, far)):
            found, chosen = passages_of(q.text, qv, library, paragraphs, vectors)
            if not found or (covered and q.paragraph not in chosen):
                continue
            rows.append(passage_features(q.text, found))
            labels.extend(int(covered and p == q.paragraph) for p in chosen)
            groups.extend([len(meta)] * len(found))
            meta.append((q.language, splits[q.paragraph], covered))
    save_groups(args.out, rows, labels, groups, meta)
    print(f"{len(meta)} groups, {len(labels)} rows in {time.time() - started:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
