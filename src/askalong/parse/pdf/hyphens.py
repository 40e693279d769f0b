"""A hyphen at a line end: the end of a split word ("exam-" / "ple") or a compound's own
hyphen ("document-" / "level"). Decided from the document itself, with no dictionary.

The hyphen is kept when the compound is written hyphenated elsewhere in the document, or
when the next line goes on with a hyphenated word ("state-" / "of-the-art"); dropped when
the joined word occurs elsewhere ("SciB-" / "ERT" beside "SciBERT"); otherwise kept only
when both halves occur as words of their own ("Citation-" / "informed"). Short heads
("in-", "re-", "de-") are far more often a split than a compound, so they need the
compound itself. The block text stored is the one decided here, so quotes, which are
checked verbatim against the stored text, show the same words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A word of letters, with hyphens inside it (no digits: "84-91" is not a compound).
_WORD = re.compile(r"[^\W\d_]+(?:[-\u2010][^\W\d_]+)*")
_LAST_WORD = re.compile(_WORD.pattern + "$")
_PIECES = re.compile(r"[-\u2010]")
_HYPHENS = ("-", "\u2010")
_MIN_HALF = 3  # letters in each half for the halves alone to keep a hyphen


@dataclass(frozen=True)
class Vocabulary:
    """The words of one document, case-folded: those without a hyphen and the compounds."""

    words: frozenset[str] = frozenset()
    compounds: frozenset[str] = frozenset()


NO_WORDS = Vocabulary()  # a text on its own: only a hyphenated next word keeps a hyphen


def vocabulary(lines: Iterable[str]) -> Vocabulary:
    """The words of ``lines`` (cleaned printed lines, in order); the pieces of a word split
    at a line end ("exam-" and the "ple" opening the next line) are not counted."""
    words: set[str] = set()
    compounds: set[str] = set()
    continued = False  # the previous line ended in a hyphen after a letter
    for line in lines:
        found = [_folded(match.group()) for match in _WORD.finditer(line)]
        ends_split = ends_in_hyphen(line)
        if continued and found:
            found = found[1:]
        if ends_split and found:
            found = found[:-1]
        for word in found:
            (compounds if _PIECES.search(word) else words).add(word)
        continued = ends_split
    return Vocabulary(frozenset(words), frozenset(compounds))


def ends_in_hyphen(text: str) -> bool:
    """Whether ``text`` ends in a hyphen right after a letter ("exam-", not "and -")."""
    return len(text) >= 2 and text.endswith(_HYPHENS) and text[-2].isalpha()


def keeps_hyphen(prev: str, text: str, known: Vocabulary) -> bool:
    """Whether the hyphen ending ``prev`` (see ``ends_in_hyphen``) stays when the line
    ``text`` is joined to it."""
    head = _LAST_WORD.search(prev[:-1])
    tail = _WORD.match(text)
    if head is None or tail is None:
        return True  # "-" / "(a)": the next line does not go on with a word
    head_folded, tail_folded = _folded(head.group()), _folded(tail.group())
    if "-" in tail_folded:
        return True
    if f"{head_folded}-{tail_folded}" in known.compounds:
        return True
    if head_folded + tail_folded in known.words:
        return False
    halves = (_PIECES.split(head_folded)[-1], tail_folded)
    return all(len(half) >= _MIN_HALF and half in known.words for half in halves)


def _folded(word: str) -> str:
    return word.casefold().replace("\u2010", "-")
