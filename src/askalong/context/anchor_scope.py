"""Whether a read-along question is about its anchor (pure).

A follow-up keeps its thread's anchor, so a reader who selected the future-work sentence
and then asks "How are the negatives for the triplets chosen?" would have it answered
from that sentence (it shares "triplets") while the method section answers it. The anchor
is set aside when the question is clearly about something else:

- ``unrelated``: none of the question's key terms is in the anchor's unit (the anchor block
  and its neighbours) or its section path;
- ``other_section``: the question names another part of the document (a cross-reference
  such as "section 3" or "the introduction" resolved away from the anchor, or a key term
  that titles a heading elsewhere and is absent around the anchor).

A question that points back ("What follows from this?", "这说明了什么？": "it", "this",
"这个", but not "this paper", which is the document) is about the selection still, and so
is one of stop words only ("Why?"): both keep the anchor. The asker still requires the
document to answer the question elsewhere before it drops the anchor
(``asking/evidence_reading.py``). Whether it points back is read with the rest of the
question (``question/leaning.points_at_anchor``).
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.context.crossref import CrossRef
from askalong.context.outline import Outline
from askalong.context.units import ContextUnit
from askalong.question.reading import QuestionReading
from askalong.text.tokens import key_terms
from askalong.types import SetAside


def anchor_set_aside(
    question: QuestionReading,
    anchor_unit: ContextUnit,
    outline: Outline,
    refs: Sequence[CrossRef] = (),
) -> SetAside | None:
    """Why the anchor does not apply to ``question``, or None when it does (it points at
    the anchor: ``QuestionReading.points_at_anchor``). ``refs`` are the question's
    cross-references resolved in ``outline``."""
    terms = question.terms
    if not terms or question.points_at_anchor:
        return None
    around = key_terms(anchor_unit.text) | key_terms(" ".join(anchor_unit.section_path))
    if not terms & around:
        return "unrelated"
    anchored = {span.block_id for span in anchor_unit.spans}
    if any(ref.resolved and not anchored & set(ref.block_ids) for ref in refs):
        return "other_section"
    if elsewhere_headings(terms - around, outline, anchor_unit.section_path):
        return "other_section"
    return None


def elsewhere_headings(
    terms: frozenset[str], outline: Outline, section_path: Sequence[str]
) -> list[str]:
    """The headings outside ``section_path`` whose titles hold one of ``terms``."""
    if not terms:
        return []
    own = set(section_path)
    found = []
    for heading in outline.headings:
        text = outline.blocks[heading.index].text
        if text not in own and terms & key_terms(text):
            found.append(text)
    return found
