"""Which lines of code answer a question by what they mean, beside which hold its words
(issue 32): the reader encoder's cosine (``answer/extractive/reader_cosine.py``, the
prose answerer's) of the question to each line read with its context orders the lines
too, and the two orders are merged rank by rank, BM25's first (its best line, the
reader's best, BM25's second, the reader's second, …; a line already taken is skipped).
So a line that says what the function does in other words than the question's ("when a
Cache holds too many items, how does it make room?" over ``self.popitem()``) finds room
in the answer, beside the lines holding its words.

A line's context is the comment right above it and the line whose body it is in
(``code_company``), its own text last: a line alone (``return None``) says little. The
encoder reads ``CANDIDATES`` lines at most (about 5 CPU ms each on the shared machine):
BM25's ``WORDS_FIRST`` best, then the subject's own lines, then the rest of BM25's;
another definition's line holding no word of the question is never read. With no reader
encoder (``ASKALONG_EMBEDDER=none``, an endpoint's embedder) the order is BM25's alone.
Reciprocal rank fusion of the same two orders was measured and not kept: it lets a line
only the reader ranks come after every line both hold, out of the answer's room
(``benchmarks/results/code-lines-DEV-2026-12-07.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from askalong.answer.extractive.reader_cosine import reader_cosines
from askalong.asking.code_company import governing, said_above
from askalong.asking.code_lines import CodeLine
from askalong.providers.base import Embedder

# Chosen on the read half of the DEV sets (``training/code_line_replay.py --grid``).
CANDIDATES = 24  # lines the encoder reads per question, at most
WORDS_FIRST = 6  # BM25's best lines, read before the subject's others
T = TypeVar("T")


def line_context(lines: list[CodeLine], line: CodeLine) -> str:
    """``line`` as the encoder reads it: the comment right above it and the line it runs
    under, then itself, each stripped."""
    around = (*said_above(lines, line), *governing(lines, line), line)
    return "\n".join(ln.text.strip() for ln in around)


def fused_order(
    question: str,
    lines: list[CodeLine],
    ranked: Sequence[CodeLine],
    own: Sequence[CodeLine],
    embedder: Embedder | None,
) -> list[CodeLine]:
    """``ranked`` (BM25's order) merged with the reader's cosine order of the lines it
    reads (``encoded``: of ``ranked`` and the subject's ``own``), best first; ``ranked``
    itself when there is no reader encoder."""
    candidates = encoded(ranked, own, WORDS_FIRST, CANDIDATES)
    if embedder is None or not candidates or embedder.reader() is None:
        return list(ranked)
    texts = [line_context(lines, line) for line in candidates]
    cosines = reader_cosines(question, texts, embedder)
    by_meaning = [candidates[i] for i in sorted(range(len(candidates)), key=lambda i: -cosines[i])]
    return interleaved([list(ranked), by_meaning])


def encoded(ranked: Sequence[T], own: Sequence[T], first: int, cap: int) -> list[T]:
    """The lines the encoder reads: BM25's ``first`` best, then the subject's own lines,
    then the rest of BM25's, ``cap`` at most."""
    return list(dict.fromkeys([*ranked[:first], *own, *ranked[first:]]))[:cap]


def interleaved(orders: Sequence[Sequence[T]]) -> list[T]:
    """The orders merged rank by rank: each order's first, then each one's second, …, a
    line already taken skipped."""
    out: dict[T, None] = {}
    for rank in range(max((len(o) for o in orders), default=0)):
        for order in orders:
            if rank < len(order):
                out.setdefault(order[rank], None)
    return list(out)
