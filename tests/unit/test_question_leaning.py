"""Whether a question leans on what came before (``question/leaning``): its thread, the
earlier questions it points back to, its anchor."""

from __future__ import annotations

from askalong.question.leaning import (
    leans_on_thread,
    points_at_anchor,
    refers_back,
    thread_subject,
)


def test_a_follow_up_leans_on_its_thread_only_when_it_needs_it() -> None:
    assert refers_back("How many of them are used for each query?")
    assert refers_back("它的默认值是多少？") and refers_back("这个参数怎么设置？")
    assert not refers_back("线程池应该怎样创建？")  # 应该: "should", not "that"
    assert not refers_back("其他字段用什么类型？")  # 其他: "other"
    assert leans_on_thread("And the harder ones?") and leans_on_thread("那默认值呢？")
    assert leans_on_thread("Why?")  # names nothing of its own
    assert not leans_on_thread("At test time, how is the most likely sequence found?")


def test_the_subject_of_a_chain_of_referring_questions() -> None:
    chain = ["What are hard negatives?", "How many of them are used?"]
    assert thread_subject(chain) == chain
    assert thread_subject([*chain, "Which optimizer is used?"]) == ["Which optimizer is used?"]
    assert thread_subject([]) == []


def test_pointing_at_the_anchor_is_not_naming_the_document() -> None:
    assert points_at_anchor("What follows from this?") and points_at_anchor("这说明了什么？")
    assert not points_at_anchor("What does this paper propose?")
    assert not points_at_anchor("本文的结论是什么？")


def test_that_there_and_then_point_back_as_demonstratives_not_as_clause_words() -> None:
    # follow-ups of the never-seen sets that were searched and answered as if asked alone
    assert leans_on_thread("Any catch with that?")
    assert leans_on_thread("Why bother with that placeholder?")
    assert leans_on_thread("Does that normally happen on a typical setup?")
    assert leans_on_thread("why is the E given twice there?")
    assert leans_on_thread("so what am I supposed to do for transfers then?")
    assert thread_subject(["Which option expires entries?", "Any catch with that?"]) == [
        "Which option expires entries?",
        "Any catch with that?",
    ]
    # "that" opening a clause names nothing said before
    assert not refers_back("Which option controls the delay that pv waits before starting?")
    assert not refers_back(
        "Why does turning on caching cost performance in folders that have no file?"
    )


def test_elliptic_and_conditional_follow_ups_continue_the_thread() -> None:
    # follow-ups of the never-seen sets still searched as if asked alone
    assert leans_on_thread("HTML 文件呢？") and leans_on_thread("要是 at.deny 是空的呢？")
    assert leans_on_thread("What if I give several line numbers?")
    assert leans_on_thread("So how do I get it to refresh?")
    assert leans_on_thread("Screen runs setuid root so I can't signal it. Now what?")
    assert leans_on_thread("除了時間之外還會檢查什麼？")
    # a question naming its own subject with no continuation word stands alone
    assert not leans_on_thread("What happens to leading missing values with na.locf?")
    assert not leans_on_thread("Is the scheduler's next queue picked by priority or by age?")
