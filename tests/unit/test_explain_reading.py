"""An Explain on a selection reads like an explanation (issue 12's closing note): the key
terms named are the document's own phrases, never common words; a piece cut at the
selection's end starts at a word; a footnote, a page number or page furniture is not
what the text goes on with; and a selection that announces something ("two sets …:")
brings the sentences that deliver it, across a page break.

Real gathering and answering, pure: ``explain_units`` over the blocks (as
``asking.evidence`` calls it), the anchor unit, then ``answer_intent``.
"""

from __future__ import annotations

from askalong.answer.extractive.intents import answer_intent
from askalong.context.anchor import locate_anchor, located_context
from askalong.context.explain import selection_terms
from askalong.context.explain_units import explain_units
from askalong.context.key_terms import printable
from askalong.context.material import Passage
from askalong.context.outline import Outline
from askalong.context.units import Piece
from askalong.question.reading import read_question
from askalong.types import Anchor, Block, BlockKind, BlockSpan, Intent

NEGATIVES = ("2 Model", "2.4 Selecting Negative Distractors")
ANNOUNCING = "We consider two sets of negative examples: the first set simply consists of"
DOCUMENT: list[tuple[BlockKind, str, tuple[str, ...], int]] = [
    ("heading", "2.4 Selecting Negative Distractors", NEGATIVES, 3),
    (
        "paragraph",
        "The choice of negative example papers is important when training the model. "
        f"{ANNOUNCING} randomly selected papers from the corpus.",
        NEGATIVES,
        3,
    ),
    ("footnote", "⁶ We also experimented with other distance functions instead.", NEGATIVES, 3),
    ("paragraph", "2272", NEGATIVES, 3),
    ("footer", "Proceedings of the Annual Meeting", NEGATIVES, 3),
    (
        "paragraph",
        "Given a query paper, we expect the model to tell cited papers from uncited ones. "
        "But random negatives may be easy for the model to tell from the positives. "
        "To give a more nuanced signal, we add a more challenging second set of negative "
        "examples. We denote as “hard negatives” the papers cited by a paper the query "
        "cites but not by the query itself.",
        NEGATIVES,
        4,
    ),
    ("heading", "2.5 Inference", ("2 Model", "2.5 Inference"), 4),
    (
        "paragraph",
        "At inference time, the model receives one paper.",
        ("2 Model", "2.5 Inference"),
        4,
    ),
]


def blocks_of(rows: list[tuple[BlockKind, str, tuple[str, ...], int]]) -> list[Block]:
    return [
        Block(f"b{k}", kind, text, k, path, page=page)
        for k, (kind, text, path, page) in enumerate(rows)
    ]


def explained(
    blocks: list[Block], selected: str, intent: Intent = "explain"
) -> tuple[str, list[str]]:
    """The offline answer to ``intent`` on ``selected``, over evidence gathered as the
    read-along path gathers it (the anchor unit, then the material units)."""
    at = next(b for b in blocks if selected in b.text)
    start = at.text.index(selected)
    located = locate_anchor(blocks, Anchor("doc", at.id, start, start + len(selected)))
    material = explain_units(
        blocks, located, intent, "", outline=Outline(blocks), document_id="doc"
    )
    units = [located_context(blocks, located), *material]
    result = answer_intent(read_question("Explain this."), units, intent)
    assert result is not None
    return result.answer, [q.text for q in result.quotes]


def test_an_announcement_brings_the_sentences_that_deliver_it_across_a_page_break() -> None:
    answer, _ = explained(blocks_of(DOCUMENT), ANNOUNCING)
    assert "second set of negative examples" in answer, answer
    assert "hard negatives" in answer, answer


def test_a_footnote_a_page_number_and_furniture_are_not_the_continuation() -> None:
    for selected in (ANNOUNCING, "randomly selected papers from the corpus."):
        answer, quotes = explained(blocks_of(DOCUMENT), selected)
        assert "⁶" not in answer and "distance functions" not in answer, answer
        assert "2272" not in quotes and "Proceedings" not in answer, answer


def test_a_piece_cut_at_the_selection_end_starts_at_a_word() -> None:
    answer, quotes = explained(blocks_of(DOCUMENT), "We consider two sets of negative examples")
    assert quotes, answer
    assert all(q[:1].isalnum() or q[:1] in "“(" for q in quotes), quotes
    assert ": : the first set" not in answer and "context: :" not in answer, answer


def test_key_terms_are_the_documents_phrases_not_common_words() -> None:
    blocks = blocks_of(DOCUMENT)
    passages = [Passage(Piece(BlockSpan(b.id, 0, len(b.text)), b.text)) for b in blocks]
    text = "We consider two sets of negative examples"
    terms = list(selection_terms(text, passages))
    assert terms[:1] == ["negative examples"], terms
    shown = [t for t in terms if printable(t, text)]
    assert shown == ["negative examples"], shown


def test_no_document_term_no_does_not_define_sentence() -> None:
    rows: list[tuple[BlockKind, str, tuple[str, ...], int]] = [
        ("paragraph", "We looked at it again. We consider these simply as given.", ("1 Intro",), 1),
        ("paragraph", "The rest of the work builds on that view.", ("1 Intro",), 1),
    ]
    answer, quotes = explained(blocks_of(rows), "We consider these simply as given.")
    assert "does not define" not in answer and "“consider”" not in answer, answer
    assert quotes, answer
