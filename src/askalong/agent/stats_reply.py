"""The answer to a question about the knowledge base itself (``QuestionPart.asks_stats``,
read in ``question/stats_asks``): its counts, said in the question's wording (pure)."""

from __future__ import annotations


def stats_sentence(documents: int, chunks: int, words: str) -> str:
    if words == "zh":
        return f"你可以查看的知识库共有 {documents} 个文档、{chunks} 个文本块。"
    if words == "zh-Hant":
        return f"你可以查看的知識庫共有 {documents} 份文件、{chunks} 個文字區塊。"
    noun = "document" if documents == 1 else "documents"
    return f"The knowledge base you can see holds {documents} {noun} in {chunks} chunks."
