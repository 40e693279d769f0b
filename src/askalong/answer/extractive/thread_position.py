"""Where a follow-up's candidate sentence stands against the previous answer (pure): a
reader who asks after an answer most often asks about what its passage says there or next.
On the fourteen never-seen DEV sets, of the 113 follow-ups whose gold sentence shares a
passage with a sentence the previous answer said, the gold was that sentence in 23, after
it in 82 (one of the next two in 54), before it in 8.

Each candidate in a passage the previous answer quoted gets one of ``POSITIONS``: the
sentence the answer said (``said``), the next one, the two after that, one further on,
or one before it. Their weights (``THREAD_WEIGHTS``) are added to the rank head's score;
``training/thread_position.py`` chose them on the DEV sets' follow-ups by the real
answerer's answers, each set answered with the weight chosen on the others (fourteen
sets: leaning follow-ups 122 -> 124 / 197, ``benchmarks/results/follow-ups-DEV-2026-12-07.md``;
chosen again on fifteen for the rank head refitted with its direct-match columns kept
>= 0: 130 -> 133 / 216, ``benchmarks/results/rank-floor-2026-12-07.md``): one weight, half
the rank scores' median spread, for the said sentence and every one after it; none
before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.text.fold import fold

POSITIONS = ("said", "next", "after", "further", "before")
# chosen by training/thread_position.py on the sixteen DEV sets' follow-ups ("from said
# +0.5": half the median spread of a follow-up's rank scores, 2.1646)
THREAD_WEIGHTS: Mapping[str, float] = {
    "said": 1.082,
    "next": 1.082,
    "after": 1.082,
    "further": 1.082,
    "before": 0.0,
}
_MIN_SAID = 12  # folded characters a sentence needs to count as said (not "Yes.")


def thread_positions(found: Sequence[Candidate], said: str) -> list[str | None]:
    """Each candidate's position against the previous answer (``said``) in its passage,
    one of ``POSITIONS``; None in a passage the answer did not quote."""
    answer = fold(said)
    quoted = [len(f) >= _MIN_SAID and f in answer for f in (fold(c.text) for c in found)]
    order = {k: n for n, k in enumerate(sorted(range(len(found)), key=lambda k: _place(found[k])))}
    last: dict[int, int] = {}  # unit -> the order of its last sentence the answer said
    for k, c in enumerate(found):
        if quoted[k]:
            last[c.unit] = max(last.get(c.unit, -1), order[k])
    return [
        _position(order[k] - last[c.unit], quoted[k]) if c.unit in last else None
        for k, c in enumerate(found)
    ]


def _place(c: Candidate) -> tuple[int, int, int]:
    return (c.unit, c.piece, c.index)


def _position(offset: int, said: bool) -> str:
    if said:
        return "said"
    if offset < 0:
        return "before"
    return "next" if offset == 1 else "after" if offset <= 3 else "further"


def thread_bonus(
    found: Sequence[Candidate], said: str, weights: Mapping[str, float] = THREAD_WEIGHTS
) -> np.ndarray:
    """What each candidate's position against the previous answer adds to its rank
    score (0 outside the passages that answer quoted, and without a previous answer)."""
    if not said.strip():
        return np.zeros(len(found))
    positions = thread_positions(found, said)
    return np.array([0.0 if p is None else weights[p] for p in positions])
