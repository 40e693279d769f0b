"""A follow-up's candidate sentences placed against the previous answer in its passage
(``answer/extractive/thread_position``)."""

from __future__ import annotations

from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.thread_position import (
    POSITIONS,
    THREAD_WEIGHTS,
    thread_bonus,
    thread_positions,
)
from askalong.context.units import ContextUnit
from askalong.types import CHUNK_JOINER, BlockSpan

BEFORE = "Expired entries stay in the cache until they are read again."
SAID = "Set a time to live on the cache to drop expired entries on their own."
NEXT = "The catch is that every lookup then pays for one more clock read."
AFTER = "Long lived caches should also bound their size in entries."
OTHER = "The logging module writes records to standard error by default."


def unit(*texts: str, first: int = 0) -> ContextUnit:
    spans = tuple(BlockSpan(f"b{first + k}", 0, len(t)) for k, t in enumerate(texts))
    joined = CHUNK_JOINER.join(texts)
    return ContextUnit("d1", ("c1",), joined, spans, spans, (), 3, 3, "retrieved", 1.0)


def test_each_sentence_of_the_answers_passage_is_placed_against_what_it_said() -> None:
    units = (unit(f"{BEFORE} {SAID}", f"{NEXT} {AFTER}"), unit(OTHER, first=2))
    found = candidates(units)
    placed = dict(zip((c.text for c in found), thread_positions(found, f"{SAID} [1]"), strict=True))
    assert placed == {BEFORE: "before", SAID: "said", NEXT: "next", AFTER: "after", OTHER: None}


def test_the_bonus_moves_the_answers_passage_from_its_said_sentence_on() -> None:
    found = candidates((unit(BEFORE, SAID, NEXT), unit(OTHER, first=3)))
    bonus = thread_bonus(found, SAID)
    assert list(bonus) == [
        THREAD_WEIGHTS["before"], THREAD_WEIGHTS["said"], THREAD_WEIGHTS["next"], 0.0
    ]  # fmt: skip
    assert bonus[2] > bonus[0] == 0.0  # the shipped weights: after the said sentence, not before
    # no previous answer, or one the passage never said: nothing moves
    assert not thread_bonus(found, "").any()
    assert not thread_bonus(found, "Yes.").any()  # too short to place
    assert set(POSITIONS) == set(THREAD_WEIGHTS)
