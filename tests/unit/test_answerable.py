"""Refusing what the evidence does not cover (``answer/extractive/answerable.py``) and
answering across languages (``answer/extractive/across.py``), through the extractive
answerer's own entry point on small real-shaped units."""

from __future__ import annotations

from hash_embedder import HashEmbedder
from tests.unit.test_extractive import ask, units_of

from askalong.answer.base import NOT_COVERED
from askalong.answer.extractive.across import crosses
from askalong.answer.extractive.scoring import candidates
from askalong.text.analysed import analysed

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
    # the weighted rule needs the sentences' similarities: keyword-only stays lenient
    assert ask(QUESTION, MANUAL).status == "answered"


def test_a_chinese_refusal_names_what_was_not_found_in_chinese() -> None:
    text = ["喷嘴的锥度系数影响喷雾锥角。锥度系数越大，喷雾锥角越小。"]
    result = ask("喷嘴的制造成本是多少？", text, embedder=HashEmbedder())
    assert result.status == "not_covered"
    assert result.answer == NOT_COVERED["zh"]
    assert result.explanation.startswith("在所给文档中没有找到") and "制造" in result.explanation


def test_evidence_is_across_when_most_of_its_sentences_are_in_the_other_language() -> None:
    english = ["The zone head is the node with the least mobility factor in its zone."] * 3
    units, _ = units_of(english)
    assert crosses(analysed("区域头节点是怎么选出来的？"), candidates(units))
    assert not crosses(analysed("How is the zone head chosen?"), candidates(units))


def test_a_chinese_paper_with_an_english_abstract_is_not_across_for_a_chinese_question() -> None:
    paper = [
        "Abstract: In order to study the cavitating flow inside the nozzle, a method was used.",
        "试验台主要由高压泵、流量计、压力表、高速摄像机和照明系统组成。试验介质为水。",
        "设计了 5 个不同锥度系数的压力旋流喷嘴。喷嘴的其他几何参数保持不变。",
    ]
    units, _ = units_of(paper)
    assert not crosses(analysed("试验用的工作液体是什么？"), candidates(units))
