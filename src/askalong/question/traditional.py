"""A Traditional Chinese question read as a Simplified one is (pure): 什麼 as 什么, 為什麼 as
为什么, 怎麼 as 怎么, 這個 as 这个.

The readings' patterns and word lists are written in Simplified characters, and the
segmenter's dictionary is Simplified: 什麼 came out as two unknown characters, read as
content words the evidence had to hold (on a DRCD slice, 20 of 34 covered questions
refused). ``plain`` gives the question's Traditional characters their Simplified form
(``text/simplified``, the table the tokeniser cuts Traditional text with), so the
readings find their words. One character for one: a place in the plain text is the same
place in the question, and the words read there are matched against the documents as
the question writes them (``written_at``). A word the dictionary lacks stays in single
characters ("池"), and a single character is no focus: ``joined_runs`` keeps each run of
them as the word it spells.
"""

from __future__ import annotations

from collections.abc import Collection

from askalong.text.simplified import simplified


def plain(text: str) -> str:
    """``text`` with its Traditional characters made Simplified (the same length: a
    place in one is the same place in the other)."""
    return simplified(text)


def joined_runs(
    plain_question: str, terms: frozenset[str], apart: Collection[str]
) -> frozenset[str]:
    """``terms`` (of ``plain_question``) with each run of single Han characters standing
    next to one another in the question joined into one term; a character of ``apart``
    (a word any question uses: "最", "多") is never part of a run."""
    singles = {t for t in terms if len(t) == 1 and "\u4e00" <= t <= "\u9fff" and t not in apart}
    runs, run = [], ""
    for char in [*plain_question, ""]:
        if char in singles:
            run += char
            continue
        if len(run) > 1:
            runs.append(run)
        run = ""
    joined = {char for run in runs for char in run}
    return (terms - joined) | frozenset(runs)


def written_at(piece: str, question: str, plain_question: str, start: int = 0) -> tuple[str, int]:
    """``piece``, found in ``plain_question`` from ``start``, as ``question`` writes it
    there (a term of a Traditional question is matched against Traditional documents),
    and where it ends; ``piece`` as it is, and ``start``, when it is not found."""
    at = plain_question.find(piece, start)
    if at < 0:
        return piece, start
    return question[at : at + len(piece)], at + len(piece)
