"""Refusing what the evidence does not cover (``answer/extractive/answerable.py``) and
answering across languages (``answer/extractive/across.py``), through the extractive
answerer's own entry point on small real-shaped units."""

from __future__ import annotations

from hash_embedder import HashEmbedder
from tests.unit.test_extractive import ask, units_of

from askalong.answer.base import NOT_COVERED
from askalong.answer.extractive.across import crosses
from askalong.answer.extractive.answerable import unmatched_words
from askalong.answer.extractive.candidates import candidates
from askalong.question.reading import read_question

# A paper whose every sentence names its package and says "paper" and "use": those weigh
# little (the last two are generic); the GPU kernels asked about are in none.
MANUAL = [
    "This paper shows how to use TIMP for many datasets at once. The paper explains how "
    "to use TIMP with starting values.",
    "The paper uses TIMP from an R session.",
]
QUESTION = "Which GPU kernels does the TIMP paper use?"


def test_a_question_whose_rare_focus_is_missing_is_not_covered() -> None:
    # before: "TIMP" found, so the question was answered from the paper
    result = ask(QUESTION, MANUAL, embedder=HashEmbedder())  # no sentence close to it
    assert result.status == "not_covered", result.answer
    assert "GPU" in result.explanation and "kernels" in result.explanation


def test_the_same_question_is_answered_when_the_evidence_holds_its_focus() -> None:
    covered = [*MANUAL, "The paper uses TIMP with GPU kernels for the residual function."]
    result = ask(QUESTION, covered, embedder=HashEmbedder())
    assert result.status == "answered"
    assert "GPU kernels" in result.answer


def test_without_an_embedder_only_a_question_with_no_focus_found_is_refused() -> None:
    # the weighted rule needs the sentences' similarities: keyword-only stays lenient ...
    assert ask("Which kernels does the TIMP paper use?", MANUAL).status == "answered"
    # ... but a name the evidence never uses ("GPU") is decisive with or without one
    assert ask(QUESTION, MANUAL).status == "not_covered"


def test_a_chinese_refusal_names_what_was_not_found_in_chinese() -> None:
    text = ["喷嘴的锥度系数影响喷雾锥角。锥度系数越大，喷雾锥角越小。"]
    result = ask("喷嘴的制造成本是多少？", text, embedder=HashEmbedder())
    assert result.status == "not_covered"
    assert result.answer == NOT_COVERED["zh"]
    assert result.explanation.startswith("在所给文档中没有找到") and "制造" in result.explanation


def test_evidence_is_across_when_most_of_its_sentences_are_in_the_other_language() -> None:
    english = ["The zone head is the node with the least mobility factor in its zone."] * 3
    units, _ = units_of(english)
    assert crosses(read_question("区域头节点是怎么选出来的？"), candidates(units))
    assert not crosses(read_question("How is the zone head chosen?"), candidates(units))


def test_a_chinese_paper_with_an_english_abstract_is_not_across_for_a_chinese_question() -> None:
    paper = [
        "Abstract: In order to study the cavitating flow inside the nozzle, a method was used.",
        "试验台主要由高压泵、流量计、压力表、高速摄像机和照明系统组成。试验介质为水。",
        "设计了 5 个不同锥度系数的压力旋流喷嘴。喷嘴的其他几何参数保持不变。",
    ]
    units, _ = units_of(paper)
    assert not crosses(read_question("试验用的工作液体是什么？"), candidates(units))


# ----------------------------------------------------- names and expected values (issue 12)

GNUPLOT = [
    "Gnuplot draws publication figures in many terminals, such as pdfcairo and svg.",
    "The plot command compares several data sets in one figure.",
    "Gnuplot can be driven from a script or from another program through a pipe.",
]


def test_a_question_naming_a_tool_the_evidence_never_names_is_not_covered() -> None:
    # before: "gnuplot", "compare" and "figures" were found, and the answer was a sentence
    # about comparing data sets
    question = "How does gnuplot compare with Matplotlib for publication figures?"
    result = ask(question, GNUPLOT, embedder=HashEmbedder())
    assert result.status == "not_covered", result.answer
    assert result.explanation == "The documents searched do not mention: Matplotlib."


def test_the_named_tool_in_the_evidence_is_answered() -> None:
    covered = [*GNUPLOT, "Unlike Matplotlib, gnuplot needs no Python to draw publication figures."]
    question = "How does gnuplot compare with Matplotlib for publication figures?"
    result = ask(question, covered, embedder=HashEmbedder())
    assert result.status == "answered"
    assert "Matplotlib" in result.answer


CAMERA = [
    "The test rig consists of a high-pressure pump, a flow meter and a high-speed camera.",
    "The high-speed camera records the spray through a window in the chamber.",
    "The nozzle hole is 1 mm wide and 10 mm long.",
]


def test_a_how_many_question_whose_counted_thing_has_no_number_is_not_covered() -> None:
    # before: answered with the camera's sentence, which gives no number
    question = "How many frames per second does the high-speed camera record?"
    result = ask(question, CAMERA, embedder=HashEmbedder())
    assert result.status == "not_covered", result.answer
    assert result.explanation == "The documents searched do not mention: frames, per, second."


def test_the_number_about_the_counted_thing_is_answered() -> None:
    covered = [*CAMERA, "The high-speed camera records 2000 frames per second."]
    question = "How many frames per second does the high-speed camera record?"
    result = ask(question, covered, embedder=HashEmbedder())
    assert result.status == "answered"
    assert "2000" in result.answer


def test_a_when_inside_a_how_question_asks_no_date() -> None:
    text = ["RESTART IDENTITY restarts the sequences owned by the table's identity columns."]
    question = "How do I restart identity sequences when I truncate a table?"
    assert ask(question, text, embedder=HashEmbedder()).status == "answered"


def test_every_focus_word_found_but_no_number_given_is_not_covered() -> None:
    result = ask("How many pumps does the test rig have?", CAMERA, embedder=HashEmbedder())
    assert result.status == "not_covered", result.answer
    assert result.explanation.startswith("No sentence in the documents searched gives a number")


# A page on turning a phone's LivePhotos off shares "关闭" with a question on closing a port.
PHONE = ["关闭该功能：在相机照相模式中点击图标，如果提示 LIVE OFF 说明就关闭了这个功能。"]


def test_a_number_the_question_gives_and_no_sentence_holds_is_not_covered() -> None:
    # before: answered with the LivePhotos sentence ("关闭" found, 445 nowhere)
    result = ask("2003如何关闭445端口", PHONE)
    assert result.status == "not_covered", result.answer
    assert "445" in result.explanation


def test_the_question_s_numbers_in_the_evidence_are_answered() -> None:
    port = ["在 Windows 2003 中关闭 445 端口：打开注册表，新建 SMBDeviceEnabled 并设为 0。"]
    assert ask("2003如何关闭445端口", [*PHONE, *port]).status == "answered"


# Pages that share only "产生" with a question whose subject the segmenter cannot cut (尘 / 虱).
NOISE = ["静电产生的原因是摩擦。", "电视产生噪音怎么办？检查电源。"]


def test_an_unknown_chinese_word_no_sentence_holds_is_not_covered() -> None:
    result = ask("尘虱是怎么样产生的", NOISE)
    assert result.status == "not_covered", result.answer
    assert "尘虱" in result.explanation


def test_the_unknown_chinese_word_in_the_evidence_is_answered() -> None:
    covered = [*NOISE, "尘虱产生于潮湿的环境，以霉菌为食。"]
    result = ask("尘虱是怎么样产生的", covered)
    assert result.status == "answered"
    assert "尘虱" in result.answer


def test_unmatched_words_are_numbers_and_unsegmented_chinese_only() -> None:
    assert unmatched_words("PostgreSQL 15 的 10,000 行", "10000 rows") == frozenset()
    assert unmatched_words("What happened in 2015 at port 445?", "that season") == {"445"}
    assert unmatched_words("建行理财到期钱没了", "理财到期") == frozenset()  # 钱 / 没: no word
    assert unmatched_words("尘虱是怎么样产生的", "静电", chinese=False) == frozenset()
