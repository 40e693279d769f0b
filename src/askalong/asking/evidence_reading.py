"""Evidence for a question asked at an anchor in a prose document (read along): the
anchor's neighbourhood, the parts of the document the question names (cross-references;
with a quick intent, what explains the selection), then what search finds in that
document, at most ``k_max_read_along`` hits, as context units in that order.

A question about something else is not forced through the selection: when the document
answers it elsewhere (``STRONG_SHARE``), it is answered from the whole document and the
anchor is set aside, saying why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from askalong.asking.evidence_base import (
    BlockKey,
    Evidence,
    Searching,
    anchor_of,
    anchored_query,
)
from askalong.asking.question import AskedQuestion
from askalong.context.anchor import located_context
from askalong.context.anchor_scope import anchor_set_aside
from askalong.context.assemble import assemble_context
from askalong.context.crossref import crossref_units, outline_references
from askalong.context.drift import anchor_terms
from askalong.context.explain_units import explain_units
from askalong.context.outline import Outline
from askalong.context.units import ContextUnit
from askalong.text.tokens import key_terms
from askalong.types import Access, Block

# The share of an unrelated question's key terms its best unit elsewhere in the document
# must hold for the anchor to be set aside.
STRONG_SHARE = 0.5


@dataclass(frozen=True)
class ReadingEvidence(Searching):
    """The strategy for a question at an anchor in prose; ``blocks`` are the anchor's
    document's, read once by the asker."""

    def gather(self, asked: AskedQuestion, access: Access, blocks: Sequence[Block]) -> Evidence:
        at = anchor_of(asked)
        document_id = asked.documents[0].id
        question = asked.question
        outline = Outline(blocks)
        anchor_unit = located_context(blocks, at)
        refs = outline_references(question.text, outline, position=at.index)
        crossref = crossref_units(question, refs, blocks, document_id=document_id)
        if asked.intent != "ask":  # a quick intent explains from the whole document
            found = explain_units(
                blocks, at, asked.intent, question.text, outline=outline, document_id=document_id
            )
            crossref = [*crossref, *found]
        k = self.searcher.policy.k_max_read_along
        known = {(document_id, block.id): block for block in blocks}
        set_aside = None
        if asked.intent == "ask":
            set_aside = anchor_set_aside(question, anchor_unit, outline, refs)
        if set_aside is not None:
            elsewhere = self._elsewhere(asked, access, known, crossref, outline)
            if elsewhere is not None:
                return replace(elsewhere, set_aside=set_aside)
        query = anchored_query(question.text, anchor_unit)
        result = self.searcher.search(query, access, documents=(document_id,), k_max=k)
        retrieved = self.units(result.hits, known)
        anchored = anchor_terms(anchor_unit)
        context = assemble_context(
            question.terms | anchored, anchor_unit, crossref, retrieved, root=outline.root
        )
        return self.found(asked, access, context, anchored, result)

    def _elsewhere(
        self,
        asked: AskedQuestion,
        access: Access,
        known: Mapping[BlockKey, Block],
        crossref: Sequence[ContextUnit],
        outline: Outline,
    ) -> Evidence | None:
        """The whole document's evidence for a question about something else than the
        anchor, when its best unit is strong; None: answered at the anchor after all."""
        question = asked.question
        document_id = asked.documents[0].id
        k = self.searcher.policy.k_max_read_along
        own = self.searcher.search(question.text, access, documents=(document_id,), k_max=k)
        found = self.units(own.hits, known)
        if not _strong(question.terms, found):
            return None
        context = assemble_context(question.terms, None, crossref, found, root=outline.root)
        return self.found(asked, access, context, frozenset(), own)


def _strong(terms: frozenset[str], units: Sequence[ContextUnit]) -> bool:
    """Whether the best retrieved unit holds at least ``STRONG_SHARE`` of the question's
    key terms."""
    if not units or not terms:
        return False
    return len(terms & key_terms(units[0].text)) >= STRONG_SHARE * len(terms)
