"""The direct answer's length: two sentences, 80 English words or 150 Chinese characters at
most, never cut mid-sentence unless one sentence alone is over the limit."""

from __future__ import annotations

from askalong.answer.base import Draft
from askalong.answer.shape import (
    ELLIPSIS,
    MAX_CJK,
    MAX_WORDS,
    StreamLimit,
    fits,
    shaped,
    shaped_draft,
    share_of_limit,
)
from askalong.types import Quote

ONE = "The default is typically 128 megabytes. [1]"
TWO = "It might be less if the kernel does not support it. [2]"
THREE = "This setting can only be set at server start. [4]"


def test_an_answer_within_the_limits_is_kept_as_written() -> None:
    answer = f"{ONE} {TWO}"
    assert shaped(answer).direct == answer and shaped(answer).rest == ""


def test_a_third_sentence_goes_to_the_rest_whole() -> None:
    result = shaped(f"{ONE} {TWO} {THREE}")
    assert result.direct == f"{ONE} {TWO}"
    assert result.rest == THREE


def test_a_sentence_ending_in_a_colon_counts_as_one_with_what_it_announces() -> None:
    # the learned answerer adds what an announcing sentence introduces (issue 32)
    announcing = "The order values are read in is: [2] From an environment variable. [3]"
    result = shaped(f"{ONE} {announcing} {THREE}")
    assert result.direct == f"{ONE} {announcing}"
    assert result.rest == THREE


def test_a_second_sentence_over_the_word_budget_is_left_apart() -> None:
    long_second = " ".join(["word"] * 75) + ". [2]"
    result = shaped(f"{ONE} {long_second}")
    assert result.direct == ONE
    assert result.rest == long_second


def test_chinese_sentences_count_characters() -> None:
    first = "默认值通常是一百二十八兆字节。[1]"
    second = "这" * 140 + "。[2]"
    result = shaped(first + second)
    assert result.direct == first and result.rest == second
    assert shaped(first + "这个设置只能在服务器启动时设置。[2]").rest == ""


def test_markers_do_not_count_as_words() -> None:
    assert share_of_limit("[1] [2] [3]") == 0
    assert share_of_limit(" ".join(["word"] * MAX_WORDS)) == 1.0
    assert share_of_limit("字" * MAX_CJK) == 1.0
    assert not fits(" ".join(["word"] * 41) + "字" * 76)  # a mixed answer spends both


def test_one_english_sentence_over_the_limit_is_cut_at_a_clause_keeping_its_marker() -> None:
    clause = " ".join(["alpha"] * 60)
    sentence = f"{clause}, {' '.join(['beta'] * 40)}. [4]"
    result = shaped(sentence)
    assert result.direct == f"{clause}{ELLIPSIS} [4]"
    assert fits(result.direct) and result.rest == ""


def test_a_sentence_with_no_clause_boundary_is_cut_at_its_last_fitting_word() -> None:
    words = [f"w{i}" for i in range(100)]
    result = shaped(" ".join(words) + ". [1]")
    assert result.direct == " ".join(words[:MAX_WORDS]) + f"{ELLIPSIS} [1]"


def test_one_chinese_sentence_over_the_limit_is_cut_at_a_comma() -> None:
    head = "甲" * 100
    result = shaped(f"{head}，{'乙' * 100}。[1]")
    assert result.direct == f"{head}{ELLIPSIS} [1]"


def test_code_is_never_cut() -> None:
    code = "\n".join(f"SELECT column_{i} FROM table_{i} WHERE x = {i};" for i in range(20))
    assert shaped(code + " [1]").direct == code + " [1]"


def test_a_draft_keeps_its_rest_ahead_of_its_explanation() -> None:
    quote = Quote(1, "d", "b", 0, 5, "text")
    draft = Draft("answered", f"{ONE} {TWO} {THREE}", (quote,), explanation="More context.")
    out = shaped_draft(draft, "en")
    assert out.answer == f"{ONE} {TWO}"
    assert out.explanation == f"{THREE} More context."
    zh = Draft("answered", "甲。[1]乙。[1]丙。[1]", (quote,), explanation="丁。")
    assert shaped_draft(zh, "zh").explanation == "丙。[1]丁。"


def test_a_stream_passes_pieces_until_the_shape_would_leave_one_out() -> None:
    limit = StreamLimit()
    assert limit.admits("The default is ") and limit.admits("typically 128MB. [1] ")
    assert limit.admits("It might be less. [2] ")
    assert not limit.admits("This setting ")  # a third sentence begins
    assert not limit.admits("x")  # and nothing after it
    words = StreamLimit()
    assert words.admits(" ".join(["word"] * 80))
    assert not words.admits(" more")  # one sentence past the word budget
