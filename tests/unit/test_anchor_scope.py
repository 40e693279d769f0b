"""Whether a read-along question is about its anchor (``context/anchor_scope.py``), on the
SPECTER paper as parsed: anchored on its future-work sentence, a question about how the
training negatives are chosen names the method's section and is set aside; follow-ups
that lean on the selection keep it."""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import parsed_pdf_blocks

from askalong.context.anchor import locate_anchor, located_context
from askalong.context.anchor_scope import anchor_set_aside
from askalong.context.crossref import outline_references
from askalong.context.outline import Outline
from askalong.question.reading import read_question
from askalong.types import Anchor, SetAside

SPECTER = ("en_2col", "2020.acl-main.207.pdf")
FUTURE_WORK = "We used citations to build triplets for our loss function"


def set_aside(evaldata: Path, question: str, selection: str = FUTURE_WORK) -> SetAside | None:
    blocks = parsed_pdf_blocks(evaldata.joinpath("pdf", *SPECTER))
    located = locate_anchor(blocks, Anchor("specter", None, None, None, selection))
    outline = Outline(blocks)
    refs = outline_references(question, outline, position=located.index)
    unit = located_context(blocks, located)
    return anchor_set_aside(read_question(question), unit, outline, refs)


@pytest.mark.parametrize(
    "question",
    [
        "How are the negatives for the triplets chosen?",  # the reproduction
        "What does section 2.4 say about the triplets?",  # a section named by number
        "Which triplets does the ablation leave out?",  # a heading's word, absent here
    ],
)
def test_a_question_naming_another_section_sets_the_anchor_aside(
    evaldata: Path, question: str
) -> None:
    assert set_aside(evaldata, question) == "other_section"


@pytest.mark.parametrize(
    "question",
    [
        "Which optimizer and batch size did the authors pick?",
        "Which optimizer does this study pick?",  # "this study" is the document
    ],
)
def test_a_question_sharing_nothing_with_the_anchor_sets_it_aside(
    evaldata: Path, question: str
) -> None:
    assert set_aside(evaldata, question) == "unrelated"


@pytest.mark.parametrize(
    "question",
    [
        "Why does it do that?",  # stop words only: leans on the selection
        "为什么？",
        "What follows from this?",  # points back, though no word is shared
        "这说明了什么？",
        "What other metrics could be used?",  # the selection's own words
        "Why were citations used to build the triplets?",
        "How do these triplets differ from the ones in section 2.4?",  # points back at it
    ],
)
def test_a_follow_up_about_the_selection_keeps_it(evaldata: Path, question: str) -> None:
    assert set_aside(evaldata, question) is None
