"""Code lines by meaning (``asking/code_meaning.py``, issue 32): the two orders merged rank
by rank, BM25's first; the lines the encoder reads (BM25's best first, then the
subject's); a line read with the comment above it and the line it runs under; BM25's order
kept where there is no reader encoder."""

from __future__ import annotations

from askalong.asking.code_lines import CodeLine
from askalong.asking.code_meaning import (
    encoded,
    fused_order,
    interleaved,
    line_context,
)
from askalong.types import BlockSpan

SOURCE = [
    "def put(self, key, value):",
    "    self.data[key] = value",
    "    # too many: the oldest go first",
    "    while self.currsize > self.maxsize:",
    "        self.popitem()",
]


def lines() -> list[CodeLine]:
    out, offset = [], 0
    for text in SOURCE:
        span = BlockSpan("b", offset, offset + len(text))
        out.append(CodeLine(0, span, text, text.strip().startswith("#")))
        offset += len(text) + 1
    return out


def test_the_orders_are_merged_rank_by_rank_the_words_first() -> None:
    a, b, c, d, e = lines()
    # rank 1: a, c; rank 2: b (BM25's), a again skipped; rank 3: d, e
    assert interleaved([[a, b, d], [c, a, e]]) == [a, c, b, d, e]
    assert interleaved([[a], [c, b, d]]) == [a, c, b, d]  # one order runs out first
    assert interleaved([[], [c]]) == [c]


def test_the_encoder_reads_the_words_best_lines_first_then_the_subjects() -> None:
    assert encoded([7, 3, 9], [1, 3, 5], 2, 5) == [7, 3, 1, 5, 9]
    assert encoded([7, 3, 9], [1, 3, 5], 2, 3) == [7, 3, 1]


def test_a_line_is_read_with_the_comment_above_and_the_line_it_runs_under() -> None:
    code = lines()
    assert line_context(code, code[4]) == "while self.currsize > self.maxsize:\nself.popitem()"
    assert line_context(code, code[3]) == (
        "# too many: the oldest go first\nwhile self.currsize > self.maxsize:"
    )


def test_without_a_reader_encoder_the_order_is_the_words() -> None:
    code = lines()
    ranked = [code[1], code[0]]
    assert fused_order("how does it make room?", code, ranked, code, None) == ranked
