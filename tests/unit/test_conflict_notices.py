"""Which citations of an answer a known conflict joins (``asking/conflicts.notices_for``):
both chunks cited gives one notice with both numbers and each side's tokens; one side
cited, or both sides by one citation, gives none."""

from __future__ import annotations

from askalong.asking.conflicts import notices_for
from askalong.types import BlockSpan, ConflictNotice, Quote
from askalong.values.conflicts import ConflictPair, ConflictSide

ON = ConflictSide(
    "c1", "d15", None, 0, 2, BlockSpan("b7", 16, 18), ("on",), (BlockSpan("b7", 0, 40),)
)
OFF = ConflictSide(
    "c2", "d16", None, 0, 3, BlockSpan("b7", 16, 19), ("off",), (BlockSpan("b7", 0, 41),)
)
PAIR = ConflictPair(ON, OFF, "setting", 0.99, 0.98, "2026-12-02T00:00:00+00:00")


def quote(number: int, document_id: str, block_id: str = "b7", start: int = 10) -> Quote:
    return Quote(number, document_id, block_id, start, start + 8, "x" * 8, None, ())


def test_both_sides_cited_is_one_notice_in_citation_order() -> None:
    quotes = [quote(1, "d16"), quote(2, "elsewhere"), quote(3, "d15"), quote(4, "d15", start=30)]
    assert notices_for([PAIR], quotes) == (ConflictNotice(1, 3, "setting", ("off",), ("on",)),)


def test_one_side_cited_is_no_notice() -> None:
    assert notices_for([PAIR], [quote(1, "d15"), quote(2, "d16", block_id="b8")]) == ()
    assert notices_for([PAIR], [quote(1, "d15"), quote(2, "d16", start=50)]) == ()


def test_a_pair_twice_is_one_notice() -> None:
    assert len(notices_for([PAIR, PAIR], [quote(1, "d15"), quote(2, "d16")])) == 1
