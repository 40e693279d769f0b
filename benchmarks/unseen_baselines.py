"""The never-seen benchmark's two BM25 baselines, each answering with one text and never
refusing (``unseen.py`` scores them beside the answerers):

- ``bm25``: the keyword route's top-1 *chunk* over the item's document;
- ``bm25p``: the top-1 *paragraph* (the unit the reader shows: one block, never a
  heading or page furniture) by BM25 over the document's blocks
  (``askalong.answer.scorer.bm25``: tantivy's formula over the keyword index's tokens):
  the issue's own "top BM25 paragraph".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from answers import _bm25_top1

BASELINES = ("bm25", "bm25p")
NOT_PARAGRAPHS = frozenset({"heading", "header", "footer", "navigation"})


def bm25_paragraph(library: Any, query: str, doc_ids: Sequence[str]) -> str:
    """The text of the documents' block that BM25 ranks first for ``query``."""
    return top_paragraph(query, [b for d in doc_ids for b in library.store.blocks(d)])


def top_paragraph(query: str, blocks: Sequence[Any]) -> str:
    """The text of the paragraph (a block, never a heading or page furniture) that BM25
    ranks first among ``blocks`` for ``query``; "" when none holds a query token."""
    from askalong.answer.scorer.bm25 import bm25_scores

    texts = [b.text for b in blocks if b.kind not in NOT_PARAGRAPHS and b.text.strip()]
    scores = bm25_scores(query, texts)
    best = max(range(len(texts)), key=scores.__getitem__, default=None)
    return texts[best] if best is not None and scores[best] > 0 else ""


def baseline_answer(system: str, library: Any, query: str, doc_ids: Sequence[str]) -> str:
    """The answer of baseline ``system`` (one of ``BASELINES``)."""
    top1 = bm25_paragraph if system == "bm25p" else _bm25_top1
    return top1(library, query, doc_ids)
