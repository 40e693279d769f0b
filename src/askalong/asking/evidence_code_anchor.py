"""Evidence for a question asked at an anchor in source code: the enclosing function
whole, then its class, callees and callers in the repository (``context/code.py``), then
what search finds there, within ``CODE_BUDGET``. A call-path or graph question
("what calls this?") is answered from the call graph instead, with no search
(``graph_based``, shared with the named-code strategy).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from askalong.asking.code_evidence import GraphEvidence, graph_evidence
from askalong.asking.code_reading import anchor_place, repository_of
from askalong.asking.evidence_base import (
    Evidence,
    Searching,
    anchor_of,
    anchored_query,
    titles_of,
)
from askalong.asking.question import AskedQuestion
from askalong.context.assemble import assemble_context
from askalong.context.code import CODE_BUDGET, code_anchor_unit, code_units
from askalong.context.drift import anchor_terms
from askalong.context.units import ContextUnit
from askalong.store.base import Store
from askalong.types import Access, Block


@dataclass(frozen=True)
class CodeAnchorEvidence(Searching):
    """The strategy for a question at an anchor in a source file; ``blocks`` are the
    file's, read once by the asker."""

    def gather(self, asked: AskedQuestion, access: Access, blocks: Sequence[Block]) -> Evidence:
        at = anchor_of(asked)
        document = asked.documents[0]
        repository = repository_of(self.store, document, blocks, access)
        place = anchor_place(repository, document, blocks[at.index])
        given = at.anchor
        start, end = given.start or 0, given.end or len(place.block.text)
        anchor_unit = code_anchor_unit(place, start, end)
        question = asked.question.code
        graph = graph_evidence(
            repository, question, place, anchor_unit, words=asked.question.wording
        )
        if graph is not None:
            return graph_based(self.store, access, asked, graph, anchor_unit)
        code = code_units(repository, place)
        ids = tuple(f.document_id for f in repository.files)
        k = self.searcher.policy.k_max_read_along
        query = anchored_query(asked.question.text, anchor_unit)
        result = self.searcher.search(query, access, documents=ids, k_max=k)
        retrieved = self.units(result.hits, {})
        anchored = anchor_terms(anchor_unit)
        terms = asked.question.terms | anchored
        context = assemble_context(terms, anchor_unit, code, retrieved, budget=CODE_BUDGET)
        evidence = self.found(asked, access, context, anchored, result)
        return replace(evidence, code_subject=".".join(place.qualname) or document.title)


def graph_based(
    store: Store,
    access: Access,
    asked: AskedQuestion,
    graph: GraphEvidence,
    anchor_unit: ContextUnit,
) -> Evidence:
    """A graph question: the tree's or the finding's functions are the evidence, in that
    order, with no search (``asking/call_paths.py``, ``asking/code_answers.py`` answer it)."""
    return Evidence(
        units=graph.units,
        titles=titles_of(store, access, asked, graph.units),
        anchor_terms=anchor_terms(anchor_unit),
        hits=(),
        searched=graph.searched,
        notes=(),
        call_tree=graph.tree,
        code_finding=graph.finding,
    )
