"""``asks_stats``: a question counts the knowledge base only when the knowledge base (or
the asker's own holdings) is what is counted; a question whose answer is a number in a
document is searched. Phrasings from the KB evaluation and from people asking the chat."""

from __future__ import annotations

import pytest

from askalong.question.stats_asks import asks_stats


@pytest.mark.parametrize(
    "question",
    [
        "How many documents are there?",
        "How many documents do I have?",
        "how many files have I uploaded?",
        "How many papers can I see?",
        "How many documents are in the knowledge base?",
        "How many chunks does my library hold?",
        "What is the number of documents in the knowledge base?",
        "knowledge base stats",
        "How many documents?",
        "我有多少文档？",
        "知识库里有多少篇文档？",
        "知识库里一共有多少个文件",
        "我们一共有多少篇论文？",
        "有多少文档？",
        "知识库的文档数量是多少？",
        "知识库的规模",
    ],
)
def test_questions_about_the_knowledge_base(question: str) -> None:
    assert asks_stats(question)


@pytest.mark.parametrize(
    "question",
    [
        "Metadata for how many papers was made publicly available with the literature graph?",
        "How many papers did the authors annotate for the benchmark?",
        "How many rows does VACUUM scan?",
        "How many files can a process keep open at once?",
        "How many chunks are there in a WAL segment before it is recycled?",
        "How many documents were retrieved per question in ALCE?",
        "有多少篇论文的元数据被公开了？",
        "数据库中有多少个文件？",
        "ALCE 每个问题检索多少篇文档？",
        "这篇论文引用了多少篇论文",
    ],
)
def test_questions_about_a_documents_content(question: str) -> None:
    assert not asks_stats(question)
