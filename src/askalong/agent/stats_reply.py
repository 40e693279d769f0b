"""The answer to a question about the knowledge base itself (``QuestionPart.asks_stats``,
read in ``question/stats_asks``): its counts, said in the question's language (pure)."""

from __future__ import annotations


def stats_sentence(documents: int, chunks: int, language: str) -> str:
    if language == "zh":
        return f"你可以查看的知识库共有 {documents} 个文档、{chunks} 个文本块。"
    noun = "document" if documents == 1 else "documents"
    return f"The knowledge base you can see holds {documents} {noun} in {chunks} chunks."
