"""The question analysed once: its complete text, language and terms, the anchor resolved
with its block's page and section, the documents and the history (``asking.question``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from askalong.answer.base import HistoryTurn
from askalong.asking.question import Question, Reading, asked_question, check_question
from askalong.errors import InputError, NotFound
from askalong.parse.pdf.parser import parse
from askalong.text.tokens import character_pairs, key_terms, terms_of
from askalong.types import Anchor, Answer, Block, Document
from askalong.values.threads import Turn

DOCUMENT = Document("xjtu", "hash", "XJTU", "xjtu.pdf", "pdf", "zh", 1, 1, "2026-01-01")


@pytest.fixture(scope="module")
def blocks(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "pdf" / "zh" / "xjtu_journal_2col_sample.pdf"
    return parse(path.read_bytes(), source=path.name).blocks


def chinese_paragraph(blocks: tuple[Block, ...]) -> Block:
    return next(b for b in blocks if b.kind == "paragraph" and len(b.text) > 100 and b.page)


def test_a_bare_intent_on_a_chinese_selection(blocks: tuple[Block, ...]) -> None:
    block = chinese_paragraph(blocks)
    selected = block.text[5:40]
    reading = Reading(Anchor("xjtu", selected_text=selected), DOCUMENT, blocks)
    asked = asked_question(Question(intent="explain"), (), reading)
    assert (asked.asked, asked.question.text) == ("", "解释这段内容。")
    assert asked.question.language == "zh" and asked.intent == "explain"
    assert asked.question.terms == key_terms("解释这段内容。")
    assert asked.question.match_terms == terms_of("解释这段内容。")
    assert asked.anchor is not None
    assert asked.anchor.anchor == Anchor("xjtu", block.id, 5, 40, selected)
    assert blocks[asked.anchor.index] == block
    place = asked.anchor.place
    assert (place.page, place.section_path) == (block.page, block.section_path)
    assert asked.documents == (DOCUMENT,) and asked.document_ids == ("xjtu",)


def test_a_question_keeps_its_text_and_the_thread_history(blocks: tuple[Block, ...]) -> None:
    previous = Turn(
        "t0", "th", 0, "什么是空化？", "ask", None, Answer("answered", "", "空化是…"), ""
    )
    asked = asked_question(Question("  喷嘴内部的空化流动如何研究？ "), (previous,), None)
    assert asked.question.text == "喷嘴内部的空化流动如何研究？"
    assert asked.question.pairs == character_pairs(asked.question.text) != frozenset()
    assert asked.anchor is None and asked.documents == ()
    assert asked.history == (HistoryTurn("什么是空化？", "空化是…"),)
    english = asked_question(Question("How is the flow studied?"), (), None)
    assert english.question.language == "en" and english.question.pairs == frozenset()


def test_errors_of_the_question_itself_come_first(blocks: tuple[Block, ...]) -> None:
    with pytest.raises(InputError, match="empty"):
        check_question(Question("  "), Anchor("xjtu", "b99999"))
    with pytest.raises(InputError, match="needs a selection"):
        check_question(Question(intent="example"), None)
    with pytest.raises(InputError, match="needs a selection"):
        asked_question(Question(intent="example"), (), None)
    check_question(Question(intent="example"), Anchor("xjtu", "b1"))
    unknown = Reading(Anchor("xjtu", "b99999"), DOCUMENT, blocks)
    with pytest.raises(NotFound, match="b99999"):
        asked_question(Question("Why?"), (), unknown)


def test_a_bare_intents_thread_is_titled_by_its_selection(blocks: tuple[Block, ...]) -> None:
    block = chinese_paragraph(blocks)
    selected = block.text[5:40]
    reading = Reading(Anchor("xjtu", selected_text=selected), DOCUMENT, blocks)
    asked = asked_question(Question(intent="explain"), (), reading)
    assert asked.title == f"解释：“{' '.join(selected.split())}”"  # not "解释这段内容。"
    typed = asked_question(Question("这段说的是什么？", intent="explain"), (), reading)
    assert typed.title == "这段说的是什么？"


def test_an_english_intent_title_is_cut_at_its_selection() -> None:
    english = Document("p", "h", "Paper", "p.md", "markdown", "en", 0, 1, "2026-01-01")
    text = "We consider two sets of negative examples " * 4
    block = Block("b1", "paragraph", text, 0)
    reading = Reading(Anchor("p", "b1", 0, len(text)), english, (block,))
    title = asked_question(Question(intent="example"), (), reading).title
    assert title.startswith("An example of: “We consider two sets") and title.endswith("…”")
    assert len(title) < 100


def test_a_bare_intent_title_speaks_the_asker_s_interface_language() -> None:
    """In the Chinese reader, Explain over an English selection titles its thread "解释：…"
    (it read "Explain: …" among the Chinese interface's words); the question stays English."""
    english = Document("p", "h", "Paper", "p.md", "markdown", "en", 0, 1, "2026-01-01")
    text = "We consider two sets of negative examples."
    reading = Reading(
        Anchor("p", "b1", 0, len(text)), english, (Block("b1", "paragraph", text, 0),)
    )
    asked = asked_question(Question(intent="explain", title_language="zh"), (), reading)
    assert asked.title == f"解释：“{text}”" and asked.question.text == "Explain this."
    unsaid = asked_question(Question(intent="explain"), (), reading)
    assert unsaid.title == f"Explain: “{text}”"


def test_a_bare_intent_on_a_traditional_selection_is_read_in_its_script() -> None:
    """The fixed prompt stays "解释这段内容。" (what is searched and ranked is unchanged);
    the reader's wording is the selection's, and so is a title in no interface language."""
    text = "潮汐是由月球的引力拉動海洋所造成的。"
    reading = Reading(
        Anchor("t", "b1", 0, len(text)), DOCUMENT, (Block("b1", "paragraph", text, 0),)
    )
    asked = asked_question(Question(intent="explain"), (), reading)
    assert (asked.question.text, asked.question.wording) == ("解释这段内容。", "zh-Hant")
    assert asked.title == f"解釋：「{text}」"
    in_the_reader = asked_question(Question(intent="explain", title_language="zh"), (), reading)
    assert in_the_reader.title == f"解释：“{text}”"  # the interface's Chinese is Simplified


def test_a_bare_intent_has_no_focus_of_its_own(blocks: tuple[Block, ...]) -> None:
    # "解释这段内容。" has the focus "段": a check against it said "the cited text does not
    # mention what the question asks about (段)"
    reading = Reading(
        Anchor("xjtu", selected_text=chinese_paragraph(blocks).text[5:40]), DOCUMENT, blocks
    )
    bare = asked_question(Question(intent="explain"), (), reading)
    assert bare.question.form.focus_terms == {"段"} and bare.focus_terms == frozenset()
    typed = asked_question(Question("损失函数是什么？", intent="explain"), (), reading)
    assert typed.focus_terms == typed.question.form.focus_terms
