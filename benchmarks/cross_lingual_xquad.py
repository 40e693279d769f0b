"""Search across languages on XQuAD: each language's questions over the other's paragraphs.

XQuAD's English and Chinese sets are one text translated, article by article and
paragraph by paragraph, so a Chinese question has its English paragraph: both directions
are a search across languages with known answers, out of the DEV sets the fusion's
``zscore_keyword_share_across`` was chosen on (``cross_lingual_search.py``). Over the
documents' paragraph-chunked eval library (``evaluate/harness.py``, built once under
``$ASKALONG_HOME/eval/``) each question's two route lists are read once, then fused as
the product does today (the question's language alone) and as asked across languages at
each keyword share of ``--shares``; R@1, R@5 and MRR@10 per direction.

    PYTHONPATH=src:benchmarks python benchmarks/cross_lingual_xquad.py [--limit N] [--shares S ...]

Results: ``benchmarks/results/cross-lingual-search-DEV-2026-12-07.md`` (section 3).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import replace

from _table import markdown_table
from askalong.config import load_settings
from askalong.evaluate.datasets import RetrievalCorpus, Unit, load_dataset
from askalong.evaluate.harness import chunk_units, corpus_settings, evaluate_corpus
from askalong.evaluate.retrieval import RetrievalReport, evaluate_retrieval
from askalong.library import Library
from askalong.retrieve.policy import RetrievalPolicy
from askalong.retrieve.ranking import fused_ranking
from askalong.text.scripts import detect_language
from askalong.types import Access, Hit
from evaldata import EVALDATA

XQUAD = EVALDATA / "qa" / "xquad"
SHARES = (0.0, 0.1, 0.2, 0.3, 0.5)
Routes = tuple[list[Hit], list[Hit]]


def asked_across(documents: RetrievalCorpus, questions: RetrievalCorpus) -> RetrievalCorpus:
    """``documents`` searched with ``questions``' questions: the same articles in the same
    order, so a question's paragraph keeps its index and takes its article's key there."""
    pairs = zip(questions.documents, documents.documents, strict=True)
    keys = {question.key: document.key for question, document in pairs}
    asked = tuple(
        replace(q, relevant=frozenset(Unit(keys[u.document], u.paragraph) for u in q.relevant))
        for q in questions.queries
    )
    return replace(documents, name=f"{questions.language} → {documents.language}", queries=asked)


def route_lists(library: Library, corpus: RetrievalCorpus) -> dict[str, Routes]:
    """Each question's keyword and vector lists, read once."""
    searcher, access = library.searcher, Access.local()
    return {
        q.text: (
            searcher.ranking(q.text, access, use_vectors=False),
            searcher.ranking(q.text, access, use_keyword=False),
        )
        for q in corpus.queries
    }


def fused(
    routes: dict[str, Routes], policy: RetrievalPolicy, across: bool
) -> Callable[[str], list[str]]:
    def search(query: str) -> list[str]:
        keyword, vector = routes[query]
        language = detect_language(query)
        ranked = fused_ranking(keyword, vector, policy, language=language, across=across)
        return [hit.chunk_id for hit in ranked[:100]]

    return search


def direction(questions: str, documents: str, shares: Sequence[float], limit: int | None) -> list:
    asked = load_dataset(XQUAD / f"xquad.{questions}.json")
    corpus = asked_across(load_dataset(XQUAD / f"xquad.{documents}.json"), asked)
    if limit:
        corpus = replace(corpus, queries=corpus.queries[:limit])
    settings = load_settings()
    evaluate_corpus(settings, corpus, chunking="paragraph", modes=("vector",), limit=1)
    with Library(corpus_settings(settings, corpus, "paragraph")) as library:
        units = chunk_units(library)
        routes = route_lists(library, corpus)
    policy = RetrievalPolicy()
    arms = [("today (the question's language)", policy, False)]
    arms += [
        (f"across, keyword share {s}", replace(policy, zscore_keyword_share_across=s), True)
        for s in shares
    ]
    return [(arm, _report(corpus, fused(routes, p, across), units)) for arm, p, across in arms]


def _report(
    corpus: RetrievalCorpus, search: Callable[[str], list[str]], units: dict
) -> RetrievalReport:
    return evaluate_retrieval(corpus, search, unit_of=lambda c: units[c])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--shares", type=float, nargs="+", default=list(SHARES))
    parser.add_argument("--limit", type=int, help="the first N questions of each direction")
    args = parser.parse_args()
    rows = []
    for questions, documents in (("zh", "en"), ("en", "zh")):
        for arm, report in direction(questions, documents, args.shares, args.limit):
            cells = (report.recall1, report.recall5, report.mrr10)
            rows.append((f"{questions} → {documents}", arm, *(f"{v or 0:.3f}" for v in cells)))
    header = ("questions → paragraphs", "fusion", "R@1", "R@5", "MRR@10")
    print(markdown_table(header, "llrrr", rows))


if __name__ == "__main__":
    main()
