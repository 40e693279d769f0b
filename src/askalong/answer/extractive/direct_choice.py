"""The direct answer's sentences, once the candidates are ranked (``learned``): the best
sentence with its pair (the next one of its piece when it announces it, a close runner-up,
else its better-scored neighbour, each when the two fit the answer's shape: ``_direct``),
with what a sentence announcing what follows introduces (``_announced``); or, where the
``read_on`` head says so, the best sentence with what it leads into (``direct_answer``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from askalong.answer.extractive.candidates import Candidate, candidates
from askalong.answer.extractive.direct import NOT_ANSWERS, with_neighbour
from askalong.answer.extractive.read_on import read_on_row
from askalong.answer.scorer.model import Scorer, variant
from askalong.answer.shape import fits
from askalong.context.units import ContextUnit
from askalong.question.reading import QuestionReading
from askalong.text.announce import announces
from askalong.text.sentences import SENTENCE_ENDS


class Ranked(Protocol):
    """The ranked evidence the direct answer is chosen from (``learned.Weighed``)."""

    @property
    def units(self) -> Sequence[ContextUnit]: ...
    @property
    def found(self) -> list[Candidate]: ...
    @property
    def ranks(self) -> np.ndarray: ...


# The runner-up joins the best sentence in the direct answer (in place of its neighbour)
# when it has this share of the best's softmax weight and the two fit the answer's shape:
# of the 548 covered DEV questions whose first choice missed, the second held the gold in
# 125, most of them away from the best sentence. On the eight never-seen DEV sets' 931
# covered questions: 444 answered with the neighbour
# rule alone, 481 / 484 / 495 / 495 at shares 0.5 / 0.3 / 0.1 / 0
# (benchmarks/results/runner-up-DEV-2026-12-06.md).
RUNNER_UP_SHARE = 0.1


@dataclass(frozen=True)
class DirectChoice:
    """The direct answer's two offers: the best sentence with its pair (``_direct``, then
    what they announce) and the read-on window (``read_on``) with its ``READ_ON`` row,
    None where there is no window or it is the pair."""

    pair: list[Candidate]
    window: list[Candidate] | None
    row: np.ndarray | None


def direct_choice(question: QuestionReading, w: Ranked, order: list[int]) -> DirectChoice:
    """The two offers for the direct answer (``training/read_on.py`` reads them too)."""
    pair = _pair(w, order)
    window = _window(w.units, w.found[order[0]])
    if window is None or window == pair:
        return DirectChoice(pair, None, None)
    ranks = {place(c): float(r) for c, r in zip(w.found, w.ranks, strict=True)}
    return DirectChoice(pair, window, read_on_row(question, ranks, pair, window))


def direct_answer(
    question: QuestionReading, w: Ranked, order: list[int], scorer: Scorer, embedded: bool
) -> list[Candidate]:
    """The direct answer's sentences: the read-on window where the ``read_on`` head
    chooses it, else the best sentence's pair."""
    if variant(embedded) not in scorer.read_on:
        return _pair(w, order)
    choice = direct_choice(question, w, order)
    if choice.window is not None and choice.row is not None:
        return choice.window if scorer.reads_on(choice.row, embedded) else choice.pair
    return choice.pair


def _pair(w: Ranked, order: list[int]) -> list[Candidate]:
    return _announced(w.units, [w.found[k] for k in _direct(w.found, order, w.ranks)])


def _window(units: Sequence[ContextUnit], best: Candidate) -> list[Candidate] | None:
    """``best``, the sentence read after it in its unit and what that one announces
    (``_announced``), when the whole fits the answer's shape."""
    after = _following(candidates(units), best)
    if after is None:
        return None
    window = _announced(units, [best, after])
    return window if fits(" ".join(c.text for c in window)) else None


def _direct(found: list[Candidate], order: list[int], scores: np.ndarray) -> list[int]:
    """The best sentence with the next one of its piece when it announces it, else with
    the runner-up when it is close (``RUNNER_UP_SHARE``), else with its better-scored
    neighbour, each when the two fit the answer's shape: the scorer often ranks first the
    sentence beside, or near, the one holding the answer."""
    best = order[0]
    after = _next(found, best)
    if announces(found[best].text) and after is not None:
        return [best, after]
    second = _runner_up(found, order, scores)
    if second is not None:
        return _in_place(found, [best, second])
    near = [k for k in neighbours(found, best) if k in order]
    pair = with_neighbour(best, near, lambda k: float(scores[k]), lambda k: found[k].text)
    return _in_place(found, pair)


def _announced(units: Sequence[ContextUnit], direct: list[Candidate]) -> list[Candidate]:
    """``direct`` with what each of its sentences announcing what follows ("… renames it
    to:", or a lead-in above a code block: ``_leads_into``) introduces: the next sentence
    of its unit, in its block or the next one (a code block, a list), unless that is a
    heading or the two overrun the answer's shape. The colon ends no sentence: the answer's
    shape counts the two as one."""
    out: list[Candidate] = []
    taken = {place(c) for c in direct}
    every: list[Candidate] | None = None  # split only when a sentence may introduce more
    for c in direct:
        out.append(c)
        if not may_introduce(c):
            continue
        every = every if every is not None else candidates(units)
        after = introduced(every, c)
        if after is None or place(after) in taken:
            continue
        if fits(f"{c.text} {after.text}"):
            out.append(after)  # else the announcing sentence is shown alone
            taken.add(place(after))
    return out


def with_blocks(
    units: Sequence[ContextUnit], direct: list[Candidate]
) -> tuple[list[Candidate], set[int]]:
    """``direct`` with, after each of its sentences that announces what follows, the block
    it introduces that the answer's shape left out (``_announced`` takes only what fits):
    "Available fields:" alone tells a reader nothing. Such a block is quoted whole and
    shown by its first line: its positions in the list returned."""
    if not any(announces(c.text) for c in direct):
        return direct, set()
    every, taken = candidates(units), {place(c) for c in direct}
    out: list[Candidate] = []
    opened: set[int] = set()
    for c in direct:
        out.append(c)
        after = introduced(every, c) if announces(c.text) else None
        if after is not None and place(after) not in taken:
            opened.add(len(out))
            out.append(after)
            taken.add(place(after))
    return out, opened


def hangs(every: list[Candidate], c: Candidate) -> bool:
    """Whether ``c`` announces what follows and the evidence does not hold it (its unit
    ends there, or a heading comes next): alone it tells a reader nothing."""
    return announces(c.text) and introduced(every, c) is None


def may_introduce(c: Candidate) -> bool:
    """Whether ``c`` may lead into what follows it: a lead-in (``announces``) or prose
    left unfinished (``_leads_into``)."""
    return announces(c.text) or _unfinished(c)


def introduced(every: list[Candidate], c: Candidate) -> Candidate | None:
    """What ``c`` introduces, if anything: the sentence read right after it in its unit
    (in its block or the next one: a code block, a list, a table) when ``c`` announces it
    or is an unfinished lead-in right above a code block."""
    after = _following(every, c) if may_introduce(c) else None
    if after is None or not (announces(c.text) or _leads_into(c, after)):
        return None
    return after


def _unfinished(c: Candidate) -> bool:
    """Prose left without a full stop or a colon."""
    return c.kind != "code" and not c.text.rstrip().endswith(SENTENCE_ENDS)


def _leads_into(c: Candidate, after: Candidate) -> bool:
    """Whether ``c`` ends its block unfinished right above a code block: a lead-in to that
    code ("…, use" / "浏览器引入" above the command or tag)."""
    return _unfinished(c) and after.kind == "code" and after.piece != c.piece


def _following(every: list[Candidate], c: Candidate) -> Candidate | None:
    """The sentence read right after ``c`` in its unit, if any may answer."""
    later = [o for o in every if o.unit == c.unit and place(o) > place(c) and o.text.strip()]
    after = min(later, key=place, default=None)
    return after if after is not None and after.kind not in NOT_ANSWERS else None


def _runner_up(found: list[Candidate], order: list[int], scores: np.ndarray) -> int | None:
    """The second-ranked sentence when it is close to the best and the two fit."""
    if len(order) < 2:
        return None
    best, second = order[0], order[1]
    close = np.exp(scores[second] - scores[best]) >= RUNNER_UP_SHARE
    return second if close and fits(f"{found[best].text} {found[second].text}") else None


def _in_place(found: list[Candidate], chosen: list[int]) -> list[int]:
    """Sentences of one unit in the document's order; of two units, best first."""
    if len({found[k].unit for k in chosen}) > 1:
        return chosen
    return sorted(chosen, key=lambda k: place(found[k]))


def place(c: Candidate) -> tuple[int, int, int]:
    return (c.unit, c.piece, c.index)


def _next(found: list[Candidate], k: int) -> int | None:
    c = found[k]
    for j, other in enumerate(found):
        if (other.unit, other.piece, other.index) == (c.unit, c.piece, c.index + 1):
            return j
    return None


def neighbours(found: list[Candidate], k: int) -> list[int]:
    c = found[k]
    places = {(c.unit, c.piece, c.index + step) for step in (-1, 1)}
    return [j for j, o in enumerate(found) if (o.unit, o.piece, o.index) in places]
