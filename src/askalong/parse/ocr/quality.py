"""How close recognised text is to a transcription: character and word error rates.

CER = Levenshtein distance / length of the reference (Morris et al. 2004 give WER the
same way over words). The distance is Hyyrö's bit-parallel form of Myers' algorithm
(2003): one pass over one string with the other held in the bits of Python integers,
so a whole page (thousands of characters) compares in milliseconds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorRates:
    """Error rates of recognised text against a reference, each 0 (perfect) and up."""

    cer: float  # characters, white space collapsed to single spaces
    cer_no_space: float  # characters, all white space removed
    wer: float  # words split at white space


def error_rates(recognised: str, reference: str) -> ErrorRates:
    spaced, ref_spaced = " ".join(recognised.split()), " ".join(reference.split())
    bare, ref_bare = "".join(recognised.split()), "".join(reference.split())
    return ErrorRates(
        cer=_rate(spaced, ref_spaced),
        cer_no_space=_rate(bare, ref_bare),
        wer=_rate(recognised.split(), reference.split()),
    )


def _rate(recognised: Sequence[Hashable], reference: Sequence[Hashable]) -> float:
    return edit_distance(recognised, reference) / max(len(reference), 1)


def edit_distance(one: Sequence[Hashable], two: Sequence[Hashable]) -> int:
    """Levenshtein distance (insert, delete, substitute all cost 1)."""
    if not one or not two:
        return len(one) + len(two)
    width = len(one)
    masks: dict[Hashable, int] = {}
    for index, item in enumerate(one):
        masks[item] = masks.get(item, 0) | (1 << index)
    full, top = (1 << width) - 1, 1 << (width - 1)
    plus, minus, score = full, 0, width
    for item in two:
        match = masks.get(item, 0)
        across = match | minus
        down = (((match & plus) + plus) ^ plus) | match
        gain = minus | ~(down | plus)
        loss = plus & down
        score += 1 if gain & top else -1 if loss & top else 0
        gain, loss = (gain << 1) | 1, loss << 1
        plus = (loss | ~(across | gain)) & full
        minus = gain & across & full
    return score
