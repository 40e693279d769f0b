"""``benchmarks/intents_replay.py``: an intent's answer is judged as ``unseen.py`` judges
it, after the asker's shaping: a gold phrase in the direct answer, an echo when the answer
and the selection hold one another, *inside* when a quote it cites overlaps the selection."""

from __future__ import annotations

from typing import Any

from benchmark_module import benchmark_module

from askalong.answer.base import Draft, DraftRequest
from askalong.context.units import ContextUnit
from askalong.question.reading import read_question
from askalong.types import BlockSpan, Quote

SELECTED = "A hard link is a second name for the same inode."


def request() -> DraftRequest:
    span = BlockSpan("b1", 0, len(SELECTED))
    anchor = ContextUnit("doc", (), SELECTED, (span,), (span,), ("S",), 1, 1, "anchor", None)
    return DraftRequest(read_question("Explain this."), "explain", (anchor,))


def quote(number: int, block: str, text: str) -> Quote:
    return Quote(number, "doc", block, 0, len(text), text)


def judged(answer: str, *quotes: Quote) -> Any:
    replay = benchmark_module("intents_replay")
    item = benchmark_module("unseen_set").Item(
        "i", "dev", "d", "html", "explain", "en", "", ("symbolic link",), selection=SELECTED
    )
    return replay.judged("unseen", item, request(), Draft("answered", answer, quotes))


def test_an_answer_from_elsewhere_hits_without_echo() -> None:
    said = "A symbolic link stores a path."
    j = judged(f"{said} [1]", quote(1, "b2", said))
    assert (j.hit, j.echo, j.inside) == (True, False, False)


def test_the_selection_quoted_back_is_an_echo_and_inside() -> None:
    j = judged(f"{SELECTED} [1]", quote(1, "b1", SELECTED))
    assert (j.hit, j.echo, j.inside) == (False, True, True)


def test_what_shaping_cuts_neither_hits_nor_counts_as_inside() -> None:
    first, second = "Links share inodes.", "Names are equal."
    cut = "A symbolic link stores a path."
    answer = f"{first} [1] {second} [2] {cut} [3]"  # the third sentence is past the shape
    quotes = (quote(1, "b2", first), quote(2, "b3", second), quote(3, "b1", cut))
    j = judged(answer, *quotes)
    assert (j.hit, j.echo, j.inside) == (False, False, False)
