"""A follow-up made self-contained from its thread (``question/rewrite``)."""

from __future__ import annotations

from askalong.answer.base import DraftRequest, HistoryTurn
from askalong.answer.extractive.answerer import learned_question
from askalong.question.reading import read_question
from askalong.question.rewrite import (
    elliptic,
    names_new_subject,
    of_thread_subject,
    self_contained,
)


def test_an_elliptic_follow_up_asks_the_previous_question_of_its_new_terms() -> None:
    # "X 呢？" after "what does Y do?" asks what X does: the previous question comes first
    assert elliptic("那 Mentor 呢？") and elliptic("HTML 文件呢？")
    assert self_contained("那 Mentor 呢？", ["Sponsor 負責做什麼？"], True) == (
        "Sponsor 負責做什麼？\n那 Mentor 呢？"
    )
    assert elliptic("and with never?") and elliptic("And if that package is not installed?")
    assert self_contained("and with never?", ["When does set_key quote the value?"], True) == (
        "When does set_key quote the value?\nand with never?"
    )


def test_a_follow_up_asking_its_own_question_gains_the_thread_subject_it_lacks() -> None:
    assert not elliptic("What is the catch with that?")
    assert not elliptic("And which one does the LFU cache throw out?")  # asks "which"
    previous = ["How do I get expired entries thrown out on their own?"]
    assert self_contained("What is the catch with that?", previous, True) == (
        "What is the catch with that?\nget expired entries thrown out own"
    )
    # the words it already holds are not added again; identifiers stay whole
    assert self_contained(
        "And what does it pass?",
        ["If a variable is already set in os.environ, does load_dotenv replace it?"],
        True,
    ) == ("And what does it pass?\nvariable already set os.environ load_dotenv replace")


def test_a_follow_up_naming_a_new_subject_is_searched_on_its_own_words() -> None:
    # "given", "twice": words the thread never used point at their own passage
    previous = ["How do I image a disk with bad sectors, skipping the errors?"]
    said = "pv -EE /dev/sda > disk-image.img"
    question = "why is the E given twice there?"
    assert self_contained(question, previous, True, said) == question
    assert names_new_subject(question, previous, said)
    assert not names_new_subject("why is it given there?", previous, said)  # "given" alone


def test_the_subject_is_the_chain_of_questions_pointing_back() -> None:
    thread = ["What are hard negatives?", "How many of them are used?"]
    rewritten = self_contained("Does it hurt?", thread, True)
    assert "hard negatives" in rewritten and "many" in rewritten


def test_a_question_that_does_not_lean_is_its_own_query() -> None:
    assert self_contained("How far do the trails climb?", ["Which puzzles are easy?"], False) == (
        "How far do the trails climb?"
    )
    assert self_contained("Any catch with that?", [], True) == "Any catch with that?"


def test_the_learned_answerer_ranks_by_the_thread_subject_only_as_its_search_did() -> None:
    previous = ("How do I get expired entries thrown out on their own?", "Set a TTL.")

    def ranked_by(question: str) -> str:
        history = (HistoryTurn(*previous),)
        request = DraftRequest(read_question(question), "ask", (), history)
        return learned_question(request).text

    # asking its own question of the subject: ranked with the subject's words
    assert of_thread_subject("What is the catch with that?", previous[:1]) == (
        "What is the catch with that?\nget expired entries thrown out own"
    )
    assert ranked_by("What is the catch with that?") == (
        "What is the catch with that?\nget expired entries thrown out own"
    )
    # elliptic ("asks the previous question again") and new-subject follow-ups: as typed
    assert ranked_by("and with never?") == "and with never?"
    question = "Why does the LRU cache evict entries sooner there?"
    assert of_thread_subject(question, previous[:1], previous[1]) == question
    assert ranked_by(question) == question
