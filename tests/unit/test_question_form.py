"""The question read once: its expected answer type and its focus, on real question forms
in English and Chinese (``question/form``)."""

from __future__ import annotations

import pytest

from askalong.question.form import focus_found, question_form
from askalong.question.reading import read_question


@pytest.mark.parametrize(
    ("question", "answer_type"),
    [
        ("Why do they use hard negatives?", "reason"),
        ("For what reason is the abstract needed?", "reason"),
        ("How many nodes does the literature graph have?", "quantity"),
        ("How much data was used for validation?", "quantity"),
        ("What percentage of papers have metadata?", "quantity"),
        ("When was the paper published?", "time"),
        ("What year did SciBERT come out?", "time"),
        ("How are the word embeddings initialized?", "method"),
        ("How does SPECTER handle new papers at inference?", "method"),
        ("What is SciDocs?", "definition"),
        ("What does ON COMMIT DROP do?", "definition"),
        ("What does BILOU stand for?", "definition"),
        ("What loss is used to train SPECTER?", "entity"),
        ("Which library turns each PDF page into tokens?", "entity"),
        ("Who funds the UMLS metathesaurus?", "entity"),
        ("Is the model fine-tuned on each task?", "yes_no"),
        ("Does SPECTER need citations at inference time?", "yes_no"),
        ("And why is that?", "reason"),
        ("为什么不能使用魔法值？", "reason"),
        ("单行最多允许多少个字符？", "quantity"),
        ("代码缩进用几个空格？", "quantity"),
        ("这个版本是什么时候发布的？", "time"),
        ("线程池应该怎么创建？", "method"),
        ("如何获得中文日期？", "method"),
        ("什么是魔法值？", "definition"),
        ("POJO 是什么？", "definition"),
        ("BigDecimal 做等值比较该用哪个方法？", "entity"),
        ("模板是否支持 XeLaTeX？", "yes_no"),
        ("SPECTER 需要引用信息吗？", "yes_no"),
        ("Summarise the results.", "other"),
    ],
)
def test_answer_type(question: str, answer_type: str) -> None:
    assert question_form(question).answer_type == answer_type


@pytest.mark.parametrize(
    ("question", "focus", "asked"),
    [
        ("What loss is used to train SPECTER?", {"loss", "train", "specter"}, "loss"),
        ("Who funded this work?", {"fund"}, ""),
        ("How are Rust lifetimes checked?", {"rust", "lifetim", "check"}, ""),
        ("How many GPUs were used?", {"gpus"}, "GPUs"),
        ("What distance function does SPECTER use?", {"distanc", "function", "specter"}, ""),
        ("这篇论文的结论是什么？", {"结论"}, "这篇论文的结论"),
        ("什么是魔法值？", {"魔法值"}, "魔法值"),
        ("SPECTER 用什么损失函数训练？", {"specter", "损失", "函数", "训练"}, "损失函数"),
        ("解释一下熵", {"熵"}, ""),  # a single character is kept when it is all there is
        ("Explain this.", set(), ""),
    ],
)
def test_focus_and_asked(question: str, focus: set[str], asked: str) -> None:
    form = question_form(question)
    assert form.focus_terms == focus
    if asked:
        assert form.asked == asked
    # ``analysed`` computes the same form once, from the terms it has already
    assert read_question(question).form == form


def test_focus_found_by_script_and_by_character_pair() -> None:
    english = "We train the model with a triplet loss."
    found, checkable = focus_found({"loss", "train", "rust"}, {"loss", "train"}, english)
    assert (found, checkable) == ({"loss", "train"}, {"loss", "train", "rust"})
    # Chinese focus terms cannot be checked against an English sentence at all
    assert focus_found({"损失", "specter"}, {"specter"}, "SPECTER uses a loss.")[1] == {"specter"}
    # a compound found by a pair of its characters
    assert focus_found({"合作伙伴"}, set(), "特斯拉的新伙伴是谁")[0] == {"合作伙伴"}
