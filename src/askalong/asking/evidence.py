"""Gather the evidence for one question: one strategy, chosen by the question's kind, each
in its own module with its own constants:

- read along (an anchor in prose): ``evidence_reading.ReadingEvidence``;
- an anchor in source code: ``evidence_code_anchor.CodeAnchorEvidence``;
- no anchor, naming code the documents define: ``evidence_code_named.NamedCodeEvidence``;
- no anchor otherwise (the knowledge base, a collection, the documents named):
  ``evidence_search.SearchEvidence``.

What they make, ``Evidence``, and the store reads they share are ``evidence_base``'s.
Reading along loads its modules (explanations, cross-references, outlines: ~30 CPU ms)
at the first anchored question in prose: a question without an anchor never needs them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from askalong.asking.evidence_base import Evidence
from askalong.asking.evidence_code_anchor import CodeAnchorEvidence
from askalong.asking.evidence_code_named import NamedCodeEvidence
from askalong.asking.evidence_search import SearchEvidence
from askalong.asking.question import AskedQuestion
from askalong.retrieve.search import Searcher
from askalong.store.base import Store
from askalong.types import Access, Block


def gather(
    store: Store,
    searcher: Searcher,
    asked: AskedQuestion,
    access: Access,
    blocks: Sequence[Block] = (),
) -> Evidence:
    """The evidence for ``asked``; ``blocks`` are its anchor's document's, as read once by
    the asker (none without an anchor)."""
    started = time.perf_counter()
    evidence = _chosen(store, searcher, asked, access, blocks)
    return replace(evidence, seconds=time.perf_counter() - started)


def _chosen(
    store: Store, searcher: Searcher, asked: AskedQuestion, access: Access, blocks: Sequence[Block]
) -> Evidence:
    if asked.anchor is not None:
        if asked.documents[0].format == "code":
            return CodeAnchorEvidence(store, searcher).gather(asked, access, blocks)
        from askalong.asking.evidence_reading import ReadingEvidence

        return ReadingEvidence(store, searcher).gather(asked, access, blocks)
    named = NamedCodeEvidence(store).gather(asked, access)
    if named is not None:
        return named
    return SearchEvidence(store, searcher).gather(asked, access)
