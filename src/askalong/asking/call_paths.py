"""A call-path question asked at lines of code ("which paths does this trigger?",
"what does this call?", "调用了哪些"): the evidence is the call tree from the enclosing
function (``context/call_path.py``), every node a unit; offline, the answer is the tree
itself, one line per node, each node a quote of its definition line (exact lines); an
entry reaching no function of the repository has its own call lines quoted instead
(``merge(self, set, true)`` of Lua's ``local merge = tablex.merge``); with a
model, the model explains the tree from those same units, cited as any answer.
"""

from __future__ import annotations

import re
from dataclasses import replace

from askalong.answer.base import Draft
from askalong.asking.code_routes import CALL_TREE_ROUTE
from askalong.context.call_path import definition_span, node_unit
from askalong.context.call_tree import CallNode, node_line, walk
from askalong.context.code import line_span
from askalong.context.units import ContextUnit
from askalong.types import Claim, Quote

_CITED = re.compile(r" \[\d+\]$")  # a line citing its quote
ROUTE = CALL_TREE_ROUTE  # the draft's route: written from the call graph, not by an answerer
# Why a node's line holds: it was read from the code, not written about it.
FROM_THE_GRAPH = "read from the repository's calls: the quote is the function's definition line"

OUTSIDE = {
    "en": "Its calls that reach no function of the repository (a library's, or a name "
    "bound elsewhere):",
    "zh": "它调用的、本仓库中没有对应函数的（库函数，或在别处绑定的名字）：",
    "zh-Hant": "它呼叫的、本儲存庫中沒有對應函式的（函式庫的函式，或在別處綁定的名稱）：",
}
INTRO = {
    "en": "The calls from {name}, {depth} levels deep (functions of its repository only):",
    "zh": "{name} 的调用（{depth} 层，仅本仓库中的函数）：",
    "zh-Hant": "{name} 的呼叫（{depth} 層，僅本儲存庫中的函式）：",
}
EXPLANATION = {
    "en": "Each line is a function reached by a call from the one above it, with its file "
    "and lines; a function already on the path is marked (cycle) and not followed again.",
    "zh": "每一行是上一行调用到的函数，附其文件和行号；已在路径上的函数标为 (cycle)，不再展开。",
    "zh-Hant": "每一行是上一行呼叫到的函式，附其檔案和行號；已在路徑上的函式標為 (cycle)，"
    "不再展開。",
}


def call_tree_draft(tree: CallNode, units: list[ContextUnit], words: str, depth: int) -> Draft:
    """The offline answer: the tree one line per node, node ``n`` cited as ``[n]``, its
    headings in the reader's ``words`` (``QuestionReading.wording``)."""
    lines, quotes = [], []
    for number, node in enumerate(walk(tree), start=1):
        lines.append(f"{node_line(node)} [{number}]")
        quotes.append(_quote(number, node, node_unit(node, units)))
    if tree.outside:
        lines.append(OUTSIDE[words])
    where = tree.place.file.where
    for line in tree.outside:
        quotes.append(_call_quote(len(quotes) + 1, tree, line))
        lines.append(f"  {where}:{line}  {quotes[-1].text} [{len(quotes)}]")
    intro = INTRO[words].format(name=".".join(tree.place.qualname), depth=depth)
    return Draft(
        "answered",
        "\n".join([intro, *lines]),
        tuple(quotes),
        explanation=EXPLANATION[words],
        route=ROUTE,
    )


def tree_checked(
    draft: Draft, why: str = FROM_THE_GRAPH
) -> tuple[tuple[Claim, ...], tuple[Quote, ...]]:
    """The tree's claims, one per line citing a quote, and its quotes: each line is the
    call graph's own reading of the code, its quote the cited function's definition line
    (or the call line itself), so both hold (``supported``) by construction; the intro
    lines cite nothing."""
    cited = [line for line in draft.answer.split("\n") if _CITED.search(line)]
    claims = tuple(
        Claim(line, (quote.number,), "supported", (why,))
        for line, quote in zip(cited, draft.quotes, strict=True)
    )
    return claims, tuple(replace(quote, verdict="supported") for quote in draft.quotes)


def _quote(number: int, node: CallNode, unit: ContextUnit) -> Quote:
    span = definition_span(node)
    block = node.place.block
    return Quote(
        number=number,
        document_id=node.place.file.document_id,
        block_id=block.id,
        start=span.start,
        end=span.end,
        text=block.text[span.start : span.end],
        page=None,
        section_path=unit.section_path,
    )


def _call_quote(number: int, node: CallNode, line: int) -> Quote:
    """The call line ``line`` of ``node``'s block, quoted whole but for its indent."""
    block = node.place.block
    start, end = line_span(block, line)
    row = block.text[start:end]
    start += len(row) - len(row.lstrip())
    return Quote(
        number=number,
        document_id=node.place.file.document_id,
        block_id=block.id,
        start=start,
        end=end,
        text=block.text[start:end],
        section_path=block.section_path,
    )
