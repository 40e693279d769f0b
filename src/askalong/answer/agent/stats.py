"""Questions about the knowledge base itself ("how many documents are there?",
"知识库里有多少文档？"), answered from ``knowledge_stats`` rather than searched (pure)."""

from __future__ import annotations

import re

_STATS = re.compile(
    r"\bhow many (?:documents|files|papers|chunks|passages)\b"
    r"|\b(?:number|count) of (?:documents|files|papers|chunks)\b"
    r"|\bknowledge base (?:stats|statistics|size)\b"
    r"|多少(?:个|篇|份)?(?:文档|文件|论文|片段|块)"
    r"|(?:文档|文件|论文)(?:的)?(?:数量|总数|个数)"
    r"|知识库(?:的)?(?:统计|规模|大小)",
    re.IGNORECASE,
)


def asks_stats(text: str) -> bool:
    return _STATS.search(text) is not None


def stats_sentence(documents: int, chunks: int, language: str) -> str:
    if language == "zh":
        return f"你可以查看的知识库共有 {documents} 个文档、{chunks} 个文本块。"
    noun = "document" if documents == 1 else "documents"
    return f"The knowledge base you can see holds {documents} {noun} in {chunks} chunks."
