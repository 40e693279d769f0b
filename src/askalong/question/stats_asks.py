"""Whether a question asks about the knowledge base itself ("how many documents are
there?", "知识库里有多少文档？"): answered from ``knowledge_stats`` rather than searched (pure).

The knowledge base (or the asker's own holdings) must be what is counted: "how many
documents do I have" is a stats question, "Metadata for how many papers was made
publicly available?" is a question about a paper's content and is searched.
"""

from __future__ import annotations

import re

from askalong.text.patterns import lazy

_UNITS = r"(?:documents|docs|files|papers|chunks|passages)"
_KB = r"(?:the |my |our |this )?(?:knowledge ?base|library|kb|collection)"
_ZH_UNITS = r"(?:个|篇|份)?(?:文档|文件|论文|资料|片段|文本块|块)"
_ZH_OWNER = r"(?:我|我们|你|知识库|资料库|文档库|这里)"
_END = r"\s*(?:[?？.!。]|$)"
_STATS = lazy(
    # how many documents do I have / are there / can I see / have we added
    rf"\bhow many {_UNITS} (?:do|did|have|has) (?:i|we|you)(?: \w+)?{_END}"
    rf"|\bhow many {_UNITS} can (?:i|we) (?:see|access|search|read|ask)\b"
    rf"|\bhow many {_UNITS} (?:are|is) (?:there|stored|available){_END}"
    rf"|\bhow many {_UNITS}\b[^?.!]*\b(?:in|does|do|has|holds) {_KB}\b"
    rf"|^\s*how many {_UNITS}{_END}"
    rf"|\b(?:number|count) of {_UNITS} (?:in|of) {_KB}\b"
    rf"|\b(?:my|our) (?:document|file|paper) count\b"
    r"|\bknowledge ?base(?:'s)? (?:stats|statistics|size)\b"
    # 我有多少文档 / 知识库里一共有多少篇文档 / 有多少文档？
    rf"|{_ZH_OWNER}(?:里|中|内|里面)?(?:一共|总共|共)?(?:有|存了|放了|收录了)?多少{_ZH_UNITS}"
    rf"|^\s*(?:一共|总共|共)?有多少{_ZH_UNITS}{_END}"
    rf"|(?:知识库|我的|我们的)(?:里|中)?(?:的)?(?:文档|文件|论文)(?:的)?(?:数量|总数|个数)"
    r"|知识库(?:的)?(?:统计|规模|大小)",
    re.IGNORECASE,
)


def asks_stats(text: str) -> bool:
    return _STATS.search(text) is not None
