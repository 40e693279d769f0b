"""The names a question gives (``question/given_names``): words written as names, every
Latin word of a Chinese question, runs of capitalised words as one name."""

from __future__ import annotations

from askalong.question.given_names import name_runs, question_names


def test_question_names_are_the_words_written_as_names() -> None:
    assert question_names("Does TIMP run its fits on a GPU?") == ("TIMP", "GPU")
    assert question_names("How does gnuplot compare with Matplotlib?") == ("Matplotlib",)
    assert question_names("Which GPT-3 model and decimal128 type?") == ("GPT-3", "decimal128")
    assert question_names("What is the loss used to train the model?") == ()
    assert question_names("ctex 宏包能在 Overleaf 上编译吗？") == ("ctex", "Overleaf")


def test_a_run_of_capitalised_words_is_one_name() -> None:
    assert name_runs("what happened in the Middle East in 2015?") == (("Middle", "East"),)
    assert name_runs("Where did Graham Twigg work?") == (("Graham", "Twigg"),)
    assert name_runs("can TIMP run on a GPU?") == (("TIMP",), ("GPU",))
