"""The context's budget counts size units, not characters (issue 32): a chunk of English
text and a chunk of Chinese text that the chunker made the same size cost the same, so
the budget holds as many of either. Small synthetic chunks, one block each."""

from __future__ import annotations

from askalong.context.assemble import assemble_context
from askalong.context.small_to_big import small_to_big
from askalong.context.units import CONTEXT_BUDGET, Budget
from askalong.text.size import size_units
from askalong.types import BlockSpan, Chunk, Hit

DOC = "d"
# 408 size units each, as a chunk of the chunker's 512-unit target might be: 1,219
# characters of English, 640 of Chinese (1.57 characters a unit, as on DEV's Chinese text)
ENGLISH = ("The parser reads each page and keeps the order of its lines. " * 20).strip()
CHINESE = "解析器（parser）逐页读取 PDF 文本，并保留各行的顺序。" * 20


def chunks_of(text: str, count: int, first: int = 0) -> list[Chunk]:
    """``count`` chunks of ``text``, two orders apart: no two adjacent, no neighbour given,
    so each is a unit of its own that does not grow."""
    return [
        Chunk(f"{DOC}:c{n}", DOC, 2 * n, (BlockSpan(f"b{n}", 0, len(text)),), text, ("S",))
        for n in range(first, first + count)
    ]


def hits_on(chunks: list[Chunk]) -> list[Hit]:
    return [Hit(c.id, DOC, 1.0 - n / 100, "hybrid") for n, c in enumerate(chunks)]


def test_the_texts_are_what_they_say() -> None:
    assert size_units(ENGLISH) == size_units(CHINESE) == 408
    assert (len(ENGLISH), len(CHINESE)) == (1219, 640)


def kept(text: str, budget: Budget = CONTEXT_BUDGET) -> list[tuple[str, ...]]:
    """The chunks small to big keeps of ten hits on chunks of ``text``, best first."""
    chunks = chunks_of(text, 10)
    return [u.chunk_ids for u in small_to_big(hits_on(chunks), {DOC: chunks}, budget=budget)]


def test_chunks_of_one_size_cost_the_same_in_either_language() -> None:
    english, chinese = kept(ENGLISH), kept(CHINESE)
    assert english == chinese == [(f"{DOC}:c{n}",) for n in range(9)]  # 9 x 408 <= 3,900
    assert 9 * len(ENGLISH) > 6000  # a budget of 6,000 characters kept 4 English chunks


def test_chinese_text_keeps_what_a_budget_of_characters_kept() -> None:
    assert len(kept(CHINESE)) == len(kept(CHINESE, Budget(6000, len))) == 9


def test_a_character_budget_still_counts_characters() -> None:
    assert len(kept(ENGLISH, Budget(6000, len))) == 6000 // len(ENGLISH) == 4


def test_assembly_keeps_what_fits_by_the_budget_s_measure() -> None:
    chunks = [*chunks_of(ENGLISH, 2), *chunks_of(CHINESE, 1, first=2)]
    units = small_to_big(hits_on(chunks), {DOC: chunks})
    assert len(units) == 3

    def assembled(budget: Budget) -> list[str]:
        return [
            u.chunk_ids[0] for u in assemble_context(frozenset(), None, (), units, budget=budget)
        ]

    # by size units the second English unit fits as well as the Chinese one would
    assert assembled(Budget(2 * 408, size_units)) == ["d:c0", "d:c1"]
    # by characters it does not: skipped, and the shorter Chinese unit comes in
    assert assembled(Budget(len(ENGLISH) + len(CHINESE), len)) == ["d:c0", "d:c2"]
