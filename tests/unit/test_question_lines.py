"""A sentence that is itself a question never answers one (``boilerplate.asks``): a FAQ's
question line, or a heading that asks, says what the lines after it answer. Seen on the
never-seen documents: "gcin 詞音要怎麼加入新詞？" answered with the FAQ's own question."""

from __future__ import annotations

from tests.unit.test_answer_choice import unit_of

from askalong.answer.extractive.boilerplate import asks
from askalong.answer.extractive.learned import learned_answer
from askalong.answer.extractive.select import answer_extractively
from askalong.question.reading import read_question

FAQ = [
    ("paragraph", "How do I add a new word to the phrase table?"),
    ("paragraph", "Type the word, then press Shift-Enter: it is added to your own table."),
    ("paragraph", "Can I remove a word I added by mistake?"),
    ("paragraph", "Yes: select it in the candidate list and press Ctrl-Delete."),
]
FAQ_ZH = [
    ("heading", "3.13. 輸入法中要如何加入新詞？"),
    ("paragraph", "先輸入詞的每個字，再按 Shift-Enter，新詞就加入你的詞庫。"),
]


def test_a_sentence_ending_in_a_question_mark_asks() -> None:
    assert asks("How do I add a new word?")
    assert asks("3.13. 輸入法中要如何加入新詞？")
    assert asks("(is it portable?)")
    assert not asks("It is portable.")
    assert not asks("Why? Because the table is per user.")  # answers after asking


def test_a_faqs_question_line_is_never_the_answer() -> None:
    units = [unit_of(FAQ)]
    for answer in (
        answer_extractively(read_question("how do I add a new word"), units),
        learned_answer(read_question("how do I add a new word"), units),
    ):
        assert "Shift-Enter" in answer.answer
        assert "How do I add" not in answer.answer
    zh = answer_extractively(read_question("要怎麼加入新詞？"), [unit_of(FAQ_ZH)])
    assert "Shift-Enter" in zh.answer and "？" not in zh.answer
