"""Compare / Example on a selection without cued material: the sentences sharing the
selection's key terms, ranked by the plain questions' scorer, never the selection."""

from __future__ import annotations

from askalong.answer.extractive.intents import answer_intent
from askalong.context.units import ContextUnit, places_of
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, Block, BlockSpan, Intent

SECTION = ("Manual", "Locking")
SELECTED = "RESERVED differs from PENDING in that new SHARED locks can be acquired."
MANUAL = [
    "The library keeps one lock on each database file.",
    "A RESERVED lock means that the process plans to write to the database file.",
    SELECTED,
    "Readers ask for the lock when they open a transaction.",
    "The journal file is written before the database file changes.",
    "No new SHARED locks are permitted while a PENDING lock is active.",
    "Backups copy the database file page by page.",
]


def manual_units() -> list[ContextUnit]:
    """The anchor unit (the selected block and its neighbours), then one retrieved unit
    per other block, as evidence gathering hands them over."""
    blocks = [Block(f"b{k}", "paragraph", t, k, SECTION, page=1) for k, t in enumerate(MANUAL)]
    at = MANUAL.index(SELECTED)
    near = blocks[at - 1 : at + 2]
    anchor = ContextUnit(
        "doc",
        (),
        CHUNK_JOINER.join(b.text for b in near),
        tuple(BlockSpan(b.id, 0, len(b.text)) for b in near),
        (BlockSpan(blocks[at].id, 0, len(SELECTED)),),
        SECTION,
        1,
        1,
        "anchor",
        None,
        places=places_of(near),
    )
    return [anchor, *(_unit(b) for b in blocks if b not in near)]


def _unit(block: Block) -> ContextUnit:
    span = (BlockSpan(block.id, 0, len(block.text)),)
    unit = ContextUnit("doc", (), block.text, span, span, SECTION, 1, 1, "retrieved", 0.5)
    return ContextUnit(**{**unit.__dict__, "places": places_of([block])})


def ask(intent: Intent, question: str) -> tuple[str, list[str], str]:
    result = answer_intent(read_question(question), manual_units(), intent)
    assert result is not None
    return result.answer, [q.text for q in result.quotes], result.explanation


def test_compare_without_a_contrast_cue_answers_with_the_sentence_on_its_terms() -> None:
    answer, _, explanation = ask("compare", "Compare this.")
    assert answer.startswith("No new SHARED locks are permitted"), answer
    assert "draws no contrast" not in answer
    assert "nearest to “PENDING”" in explanation or "nearest to “SHARED”" in explanation


def test_the_ranked_answer_never_quotes_the_selection() -> None:
    for intent in ("compare", "example"):
        answer, quotes, _ = ask(intent, "Compare this.")
        assert SELECTED not in answer
        assert all(q not in SELECTED and SELECTED not in q for q in quotes)


def test_the_ranked_answer_keeps_the_sentence_after_the_selection() -> None:
    answer, _, _ = ask("compare", "Compare this.")
    assert "Around the selection: Readers ask for the lock" in answer
